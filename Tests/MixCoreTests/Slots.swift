import Catalogue
import MixCore

/// The slots of the standard catalogue's ramps by name, for tests that
/// drive the kernel directly.
struct Slots {
    let ramps: RampLayout
    let catalogue = Catalogue()

    private func slot(_ strip: Parameter.Strip, _ name: String, _ channel: Int) -> Int {
        guard let number = catalogue.number(strip, name), let block = catalogue.blockOfParameter[number] else { return -1 }
        return ramps.slot(block: block, channel: channel)
    }

    func sourceVolume(_ n: Int) -> Int { slot(.source, "volume", n) }
    func sourcePan(_ n: Int) -> Int { slot(.source, "pan", n) }
    func sourceMute(_ n: Int) -> Int { slot(.source, "mute", n) }
    func sourceInvert(_ n: Int) -> Int { slot(.source, "invert", n) }
    func sourceDirect(_ n: Int) -> Int { slot(.source, "direct", n) }
    func sourceSolo(_ n: Int) -> Int { ramps.slot(block: catalogue.soloGateBlock, channel: n) }
    func outputVolume(_ m: Int) -> Int { slot(.output, "volume", m) }
    func outputMute(_ m: Int) -> Int { slot(.output, "mute", m) }
    func outputDelay(_ m: Int) -> Int { slot(.output, "delay", m) }
    var masterVolume: Int { slot(.master, "volume", 1) }
    var masterMute: Int { slot(.master, "mute", 1) }
    func crosspoint(_ input: Int, _ output: Int) -> Int { ramps.crosspoint(input, output) }
    /// Talkback t's send into output m, and output m's dim.
    func talkSend(_ t: Int, _ m: Int) -> Int { ramps.slot(block: catalogue.talkSendBlock + t - 1, channel: m) }
    func talkDim(_ m: Int) -> Int { ramps.slot(block: catalogue.talkDimBlock, channel: m) }
}

extension Mixer {
    var parameters: Slots { Slots(ramps: rampLayout) }
}
