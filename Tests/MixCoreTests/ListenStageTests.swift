import Catalogue
import Foundation
import MixCore
import SceneModel
import Testing

/// The listen stage on its own (issue 37): a source's share is heard as the
/// mix read it (PFL, before its level), an output's as it leaves (AFL),
/// each on the side its share gives, times the listen's gain; a change of
/// share crossfades; nothing it is given leaves it non-finite.
@Suite struct ListenStageTests {
    /// The rig's catalogue's blocks (the listen's among them), a mixer
    /// rendered by hand with two sources playing what the test gives them.
    final class Rig {
        let mixer: Mixer
        let layout: RampLayout
        let blocks: (sourceLeft: Int, sourceRight: Int, outputLeft: Int, outputRight: Int, mix: Int)
        let frames = 64
        var sources: [(Int) -> Float] = [{ _ in 0 }, { _ in 0 }]
        private(set) var recorded: [[Float]] = [[], [], [], []] // out_1, out_2, listen L, listen R
        private var clock = 0

        init() {
            let catalogue = Catalogue()
            layout = catalogue.rampLayout(inputs: 2, outputs: 2)
            blocks = (catalogue.listenSourceBlock, catalogue.listenSourceBlock + 1, catalogue.listenOutputBlock,
                      catalogue.listenOutputBlock + 1, catalogue.listenMixBlock)
            mixer = Mixer(ramps: layout, initial: catalogue.changes(toReach: Scene(inputs: 2, outputs: 2), in: layout, seconds: 0),
                          panLaw: .balance, layout: OutputLayout(outputs: 2))
            mixer.setSampleRate(48_000)
        }

        func set(_ block: Int, _ channel: Int, _ value: Float, seconds: Float = 0) {
            mixer.submit([Change(ramp: Int32(layout.slot(block: block, channel: channel)), position: value, value: value,
                                 seconds: seconds)])
        }

        func render(periods: Int) {
            let ins = (0..<2).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: frames) }
            let outs = (0..<4).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: frames) }
            defer { (ins + outs).forEach { $0.deallocate() } }
            let inputs = ins.map { UnsafePointer($0) }
            let listen: [UnsafeMutablePointer<Float>?] = [outs[2], outs[3]]
            for _ in 0..<periods {
                for n in 0..<2 { for k in 0..<frames { ins[n][k] = sources[n](clock + k) } }
                _ = mixer.begin(frames: frames)
                inputs.withUnsafeBufferPointer { i in
                    Array(outs.prefix(2)).withUnsafeBufferPointer { o in
                        listen.withUnsafeBufferPointer { l in
                            mixer.render(inputs: i.baseAddress!, outputs: o.baseAddress!, directs: nil,
                                         listen: l.baseAddress!, frames: frames)
                        }
                    }
                }
                for c in 0..<4 { recorded[c].append(contentsOf: UnsafeBufferPointer(start: outs[c], count: frames)) }
                clock += frames
            }
        }

        func last(_ c: Int, _ count: Int = 64) -> [Float] { Array(recorded[c].suffix(count)) }
    }

    static func sine(_ frequency: Float, _ amplitude: Float) -> (Int) -> Float {
        { amplitude * sinf(2 * .pi * frequency * Float($0) / 48_000) }
    }

    @Test func aSourceIsHeardBeforeItsLevelAndAnOutputAsItLeaves() {
        let rig = Rig()
        let p = rig.mixer.parameters
        rig.sources = [Self.sine(440, 0.5), Self.sine(1000, 0.25)]
        rig.mixer.submit([Change(ramp: Int32(p.sourceVolume(1)), position: 0.5, value: 0.1, seconds: 0)])
        rig.set(rig.blocks.mix, Listen.levelLane + 1, 1)
        // Source 1 on the left (PFL), output 2 on the right (AFL).
        rig.set(rig.blocks.sourceLeft, 1, 1)
        rig.set(rig.blocks.outputRight, 2, 1)
        rig.render(periods: 4)
        let n = 3 * 64
        let heard = rig.recorded[0].count - n
        for k in 0..<n {
            guard rig.recorded[2][heard + k] == Self.sine(440, 0.5)(heard + k),
                  rig.recorded[3][heard + k] == rig.recorded[1][heard + k] else {
                Issue.record("at \(k): \(rig.recorded[2][heard + k]) \(rig.recorded[3][heard + k])")
                return
            }
        }
        #expect(rig.last(1).contains { $0 != 0 } && rig.last(0).contains { abs($0) > 0.04 }, "something played")
    }

    @Test func theListensGainScalesItAndASelectionCrossfades() {
        let rig = Rig()
        rig.sources = [{ _ in 0.5 }, { _ in 0.25 }]
        rig.set(rig.blocks.mix, Listen.levelLane + 1, 0.5)
        rig.set(rig.blocks.sourceLeft, 1, 1)
        rig.render(periods: 3)
        #expect(rig.last(2).allSatisfy { $0 == 0.25 }, "\(rig.last(2, 4))")
        #expect(rig.last(3).allSatisfy { $0 == 0 }, "nothing on the right")
        // Source 2 in its place, over 20 ms: never a step of more than a ramp's.
        rig.set(rig.blocks.sourceLeft, 1, 0, seconds: 0.02)
        rig.set(rig.blocks.sourceLeft, 2, 1, seconds: 0.02)
        rig.render(periods: 30)
        #expect(rig.last(2).allSatisfy { $0 == 0.125 }, "\(rig.last(2, 4))")
        let crossfade = rig.recorded[2][(3 * 64)...]
        let steps = zip(crossfade.dropFirst(), crossfade).map { abs($0 - $1) }
        #expect((steps.max() ?? 1) < 0.25 * 0.5 / 960 * 2, "largest step \(steps.max() ?? 1)")
        // Nothing selected: silence, exactly.
        rig.set(rig.blocks.sourceLeft, 2, 0)
        rig.render(periods: 3)
        #expect(rig.last(2).allSatisfy { $0 == 0 } && rig.last(3).allSatisfy { $0 == 0 })
    }

    @Test func nothingASourceGivesLeavesTheListenNonFinite() {
        let rig = Rig()
        rig.sources = [{ [Float.nan, .infinity, -.infinity, 3e38][$0 % 4] }, { _ in 0 }]
        rig.set(rig.blocks.mix, Listen.levelLane + 1, 4)
        rig.set(rig.blocks.sourceLeft, 1, 4)
        rig.set(rig.blocks.sourceRight, 1, 4)
        rig.render(periods: 4)
        #expect(rig.recorded[2].allSatisfy { $0.isFinite } && rig.recorded[3].allSatisfy { $0.isFinite })
    }
}
