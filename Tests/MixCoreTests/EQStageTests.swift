import Foundation
import Catalogue
import MixCore
import SceneModel
import Shaping
import Testing

/// The EQ stages in the render kernel, offline: a source's EQ before the
/// mix and an output's after it give the cookbook's responses, a flat EQ
/// leaves the signal bit for bit, and moving bands do not click.
@Suite struct EQStageTests {
    /// A 2x2 rig of mono outputs playing an impulse on both inputs.
    static func impulses(_ scene: Scene, rate: Int = 48_000, frames: Int = 16_384) -> OfflineRig {
        let rig = OfflineRig(inputs: 2, outputs: 2, sampleRate: rate, monoOutputs: [1, 2], scene: scene)
        rig.signals = [{ $0 == 0 ? 1 : 0 }, { $0 == 0 ? 1 : 0 }]
        rig.render(periods: frames / rig.frames)
        return rig
    }

    @Test(arguments: [44_100, 48_000, 96_000])
    func aSourceAndAnOutputEQGiveTheCookbooksResponse(rate: Int) {
        var scene = Scene(inputs: 2, outputs: 2)
        scene.sources[0].eq.lowCut = { var c = Equaliser.Cut(frequency: 80); c.on = true; return c }()
        scene.sources[0].eq.bands[1] = { var b = EQBand(type: .peak, frequency: 1_000); (b.gain, b.q, b.on) = (6, 2, true); return b }()
        scene.sources[0].eq.bands[3] = { var b = EQBand(type: .highShelf, frequency: 8_000); (b.gain, b.q, b.on) = (-4, 0.7, true); return b }()
        scene.outputs[1].eq.highCut = { var c = Equaliser.Cut(frequency: 5_000); (c.on, c.slope) = (true, 12); return c }()
        scene.outputs[1].eq.bands[2] = { var b = EQBand(type: .peak, frequency: 3_000); (b.gain, b.q, b.on) = (-9, 1.5, true); return b }()
        scene.outputs[1].eq.bands[0] = { var b = EQBand(type: .lowShelf, frequency: 200); (b.gain, b.q, b.on) = (12, 1, true); return b }()
        let rig = Self.impulses(scene, rate: rate)
        let fs = Double(rate)
        let source = Band.cut(.highPass, frequency: 80, slope: .twentyFour)
            + [Band(.peak, frequency: 1_000, gain: 6, q: 2), Band(.highShelf, frequency: 8_000, gain: -4, q: 0.7)]
        let output = Band.cut(.lowPass, frequency: 5_000, slope: .twelve)
            + [Band(.peak, frequency: 3_000, gain: -9, q: 1.5), Band(.lowShelf, frequency: 200, gain: 12, q: 1)]
        for f in Cookbook.thirdOctaves(below: 0.45 * fs) where f >= 40 {
            let expected = Cookbook.response(of: source, at: f, sampleRate: fs)
            if expected > -80 {
                let measured = Cookbook.measured(rig.recorded[0], at: f, sampleRate: fs)
                #expect(abs(measured - expected) < 0.1, "source at \(f) Hz, \(rate): \(measured) dB, cookbook \(expected)")
            }
            let out = Cookbook.response(of: output, at: f, sampleRate: fs)
            if out > -80 {
                let measured = Cookbook.measured(rig.recorded[1], at: f, sampleRate: fs)
                #expect(abs(measured - out) < 0.1, "output at \(f) Hz, \(rate): \(measured) dB, cookbook \(out)")
            }
        }
    }

    /// EQ off, or every band on at 0 dB, is the signal as it was, bit for bit.
    @Test func aFlatEQLeavesTheSignalBitForBit() {
        var flat = Scene(inputs: 2, outputs: 2)
        for b in 0..<4 { flat.sources[0].eq.bands[b].on = true }
        for b in 0..<6 { flat.outputs[1].eq.bands[b].on = true }
        flat.sources[1].eq.on = false
        flat.sources[1].eq.bands[2] = { var b = EQBand(type: .peak, frequency: 700); (b.gain, b.on) = (9, true); return b }()
        let noise = (0..<4_096).map { _ in Float.random(in: -1...1) }
        func play(_ scene: Scene) -> [[Float]] {
            let rig = OfflineRig(inputs: 2, outputs: 2, monoOutputs: [1, 2], scene: scene)
            rig.signals = [{ noise[$0 % noise.count] }, { noise[($0 * 7) % noise.count] }]
            rig.render(periods: 64)
            return rig.recorded
        }
        #expect(play(flat) == play(Scene(inputs: 2, outputs: 2)))
    }

    /// A flat source in a group of eight whose EQ runs (source 3's) is bit
    /// for bit as it was; and a source whose EQ ran and went flat is too,
    /// once the change is over.
    @Test func aFlatSourceBesideARunningOneAndAnEQGoneFlatAreBitExact() {
        let noise = (0..<4_096).map { _ in Float.random(in: -1...1) }
        let catalogue = Catalogue()
        func play(_ scene: Scene, flatten: Bool = false) -> [[Float]] {
            let rig = OfflineRig(inputs: 4, outputs: 4, monoOutputs: [1, 2, 3, 4], scene: scene)
            rig.signals = (0..<4).map { n in { noise[($0 * (n + 1)) % noise.count] } }
            rig.render(periods: 32)
            if flatten {
                let layout = catalogue.rampLayout(inputs: 4, outputs: 4)
                let number = catalogue.number(.source, "eq/2/on")!
                rig.submit([catalogue.change(number, at: .source(3), to: .toggle(false), in: layout, seconds: 0.01)!])
            }
            rig.render(periods: 64)
            return rig.recorded
        }
        var running = Scene(inputs: 4, outputs: 4)
        running.sources[2].eq.bands[1] = { var b = EQBand(type: .peak, frequency: 700); (b.gain, b.on) = (9, true); return b }()
        let plain = play(Scene(inputs: 4, outputs: 4))
        let beside = play(running)
        #expect(beside[0] == plain[0] && beside[1] == plain[1] && beside[3] == plain[3], "flat lanes of a running group")
        #expect(beside[2] != plain[2], "source 3's EQ runs")
        let flattened = play(running, flatten: true)
        #expect(Array(flattened[2].suffix(32 * 64)) == Array(plain[2].suffix(32 * 64)), "gone flat: as it was, bit for bit")
    }

    /// A band swept, its gain jumped and switched while a sine plays: no
    /// step above the sine's own slope + 0.01 (the rig's click criterion).
    @Test func movingBandsDoNotClick() {
        let rig = OfflineRig(inputs: 1, outputs: 1, monoOutputs: [1])
        rig.playSine(input: 1, frequency: 997, amplitude: 0.25)
        let catalogue = Catalogue(), layout = catalogue.rampLayout(inputs: 1, outputs: 1)
        func set(_ name: String, _ value: Parameter.Value, seconds: Float, strip: Parameter.Strip = .source) {
            let number = catalogue.number(strip, name)!
            let place: Parameter.Place = strip == .source ? .source(1) : .output(1)
            rig.submit([catalogue.change(number, at: place, to: value, in: layout, seconds: seconds)!])
        }
        rig.render(seconds: 0.1)
        set("eq/2/gain", .number(12), seconds: 0)
        set("eq/2/freq", .number(100), seconds: 0)
        set("eq/2/on", .toggle(true), seconds: 0.02)
        rig.render(seconds: 0.1)
        set("eq/2/freq", .number(10_000), seconds: 2)
        rig.render(seconds: 2.1)
        set("eq/2/gain", .number(-15), seconds: 0.02)
        rig.render(seconds: 0.1)
        set("eq/2/gain", .number(15), seconds: 0.02)
        rig.render(seconds: 0.1)
        set("eq/2/on", .toggle(false), seconds: 0.02)
        set("hpf/on", .toggle(true), seconds: 0.02)
        set("eq/3/gain", .number(15), seconds: 0.02, strip: .output)
        set("eq/3/on", .toggle(true), seconds: 0.02, strip: .output)
        rig.render(seconds: 0.2)
        let samples = rig.recorded[0]
        let slope = 2 * sin(Float.pi * 997 / 48_000)
        var worst: Float = 0
        for k in 1..<samples.count {
            let window = samples[max(0, k - 64)...min(samples.count - 1, k + 64)]
            let peak = window.map(abs).max() ?? 0
            worst = max(worst, abs(samples[k] - samples[k - 1]) - (slope * peak + 0.01))
            #expect(samples[k].isFinite)
        }
        #expect(worst <= 0, "a step \(worst) above the sine's own slope + 0.01")
    }
}
