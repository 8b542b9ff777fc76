import Catalogue
import Foundation
import MixCore
import SceneModel
import Testing

/// The talkback stage on its own (issue 37): a talkback's input is added
/// into the outputs it is sent to, after their level and mute and before
/// their delay, its sends ramp sample by sample, and nothing it is given
/// puts a non-finite sample on an output.
@Suite struct TalkbackStageTests {
    /// A mixer for the rig's catalogue (the talk sends of every talkback and
    /// the outputs' dims among its blocks), rendered by hand with one
    /// source and two talkbacks playing what the test gives them.
    final class Rig {
        let mixer: Mixer
        let layout: RampLayout
        let talkBlocks: [Int]
        let dimBlock: Int
        private(set) var outputs: Int
        let frames = 64
        var source: (Int) -> Float = { _ in 0 }
        var talk: [(Int) -> Float] = [{ _ in 0 }, { _ in 0 }]
        private(set) var recorded: [[Float]]
        private var clock = 0

        init(outputs: Int = 4) {
            let catalogue = Catalogue()
            talkBlocks = Array(catalogue.talkSendBlock..<(catalogue.talkSendBlock + Talkbacks.most))
            dimBlock = catalogue.talkDimBlock
            layout = catalogue.rampLayout(inputs: 1, outputs: outputs)
            var initial = catalogue.changes(toReach: Scene(inputs: 1, outputs: outputs), in: layout, seconds: 0)
            // Source 1 into every output at unity: the programme.
            for m in 1...outputs {
                initial.append(Change(ramp: Int32(layout.crosspoint(1, m)), position: FaderLaw.position(gain: 1), value: 1,
                                      seconds: 0))
            }
            mixer = Mixer(ramps: layout, initial: initial, panLaw: .balance, layout: OutputLayout(outputs: outputs),
                          longestDelay: 0.1)
            mixer.setSampleRate(48_000)
            self.outputs = outputs
            recorded = Array(repeating: [], count: outputs)
        }

        /// Talkback t's send into output m to `gain` over `seconds`, by the fader law.
        func send(_ t: Int, _ m: Int, _ gain: Float, seconds: Float = 0) {
            let slot = layout.slot(block: talkBlocks[t - 1], channel: m)
            mixer.submit([Change(ramp: Int32(slot), position: FaderLaw.position(gain: gain), value: gain, seconds: seconds)])
        }

        func dim(_ m: Int, _ gain: Float, seconds: Float = 0) {
            let slot = layout.slot(block: dimBlock, channel: m)
            mixer.submit([Change(ramp: Int32(slot), position: gain, value: gain, seconds: seconds)])
        }

        func render(periods: Int, talkbacks: Int = 2) {
            let input = UnsafeMutablePointer<Float>.allocate(capacity: frames)
            let talks = (0..<2).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: frames) }
            let outs = (0..<outputs).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: frames) }
            defer { ([input] + talks + outs).forEach { $0.deallocate() } }
            let ins = [UnsafePointer(input)]
            let talkPointers: [UnsafePointer<Float>?] = talks.map { UnsafePointer($0) }
            for _ in 0..<periods {
                for k in 0..<frames {
                    input[k] = source(clock + k)
                    for t in 0..<2 { talks[t][k] = talk[t](clock + k) }
                }
                _ = mixer.begin(frames: frames)
                ins.withUnsafeBufferPointer { i in
                    outs.withUnsafeBufferPointer { o in
                        talkPointers.withUnsafeBufferPointer { t in
                            mixer.render(inputs: i.baseAddress!, outputs: o.baseAddress!, directs: nil,
                                         talks: t.baseAddress!, talkCount: talkbacks, frames: frames)
                        }
                    }
                }
                for m in 0..<outputs { recorded[m].append(contentsOf: UnsafeBufferPointer(start: outs[m], count: frames)) }
                clock += frames
            }
        }

        func last(_ m: Int, _ count: Int) -> ArraySlice<Float> { recorded[m - 1].suffix(count) }

        /// The rig to `outputs` outputs, every send 0 in the new kernel.
        func reshape(outputs: Int) {
            let catalogue = Catalogue()
            let ramps = catalogue.rampLayout(inputs: 1, outputs: outputs)
            mixer.reshape(to: ramps, initial: catalogue.changes(toReach: Scene(inputs: 1, outputs: outputs), in: ramps, seconds: 0),
                          layout: OutputLayout(outputs: outputs))
            self.outputs = outputs
            while recorded.count < outputs { recorded.append(Array(repeating: 0, count: recorded[0].count)) }
            recorded.removeLast(recorded.count - outputs)
        }
    }

    static func sine(_ frequency: Float, _ amplitude: Float) -> (Int) -> Float {
        { amplitude * sinf(2 * .pi * frequency * Float($0) / 48_000) }
    }

    @Test func aTalkReachesItsDestinationsAtItsGainAndNoOtherOutput() {
        let rig = Rig()
        rig.source = Self.sine(440, 0.25)
        rig.talk[0] = Self.sine(1000, 0.5)
        rig.render(periods: 4)
        rig.send(1, 2, 0.5)
        rig.send(1, 3, 0.5)
        rig.render(periods: 8)
        // From the period after the sends jumped (the stage goes from the
        // last period's send to this one's across a period).
        let n = 7 * rig.frames
        let start = rig.recorded[0].count - n
        for k in 0..<n {
            let programme = rig.recorded[0][start + k]
            let talk = 0.5 * Self.sine(1000, 0.5)(start + k)
            #expect(rig.recorded[1][start + k] == programme + talk, "output 2 at \(k)")
            #expect(rig.recorded[2][start + k] == programme + talk, "output 3 at \(k)")
            #expect(rig.recorded[3][start + k] == programme, "output 4 carries none of it")
            if rig.recorded[1][start + k] != programme + talk { break }
        }
        #expect(rig.last(1, n).contains { $0 != 0 }, "the programme played")
    }

    @Test func aTalkIsHeardThroughTheOutputsMuteAndLevelAndIsDelayedWithIt() {
        let rig = Rig()
        let p = rig.mixer.parameters
        rig.mixer.submit([Change(ramp: Int32(p.outputMute(2)), position: 0, value: 0, seconds: 0),
                          Change(ramp: Int32(p.outputVolume(3)), position: 0.5, value: 0.1, seconds: 0),
                          Change(ramp: Int32(p.outputDelay(3)), position: 0.001, value: 0.001, seconds: 0)])
        rig.source = { _ in 0.25 }
        // An impulse of 0.5 at sample 1000, once the delay has settled.
        rig.talk[0] = { $0 == 1000 ? 0.5 : 0 }
        rig.send(1, 2, 1)
        rig.send(1, 3, 1)
        rig.render(periods: 20)
        #expect(rig.recorded[1][1000] == 0.5 && rig.recorded[1][999] == 0, "muted output 2 carries the talk alone")
        let three = rig.recorded[2]
        // Output 3: its programme at its level, and the talk (not scaled by
        // its level) 48 samples late, the delay's.
        #expect(abs(three[1047] - 0.025) < 1e-6 && abs(three[1048] - 0.525) < 1e-6 && abs(three[1049] - 0.025) < 1e-6,
                "delayed by 48 samples: \(three[1046...1050])")
    }

    @Test func talkOnAndOffRampWithoutAClick() {
        let rig = Rig()
        rig.talk[0] = Self.sine(1000, 1)
        rig.render(periods: 2)
        rig.send(1, 1, 1, seconds: 0.02)
        rig.render(periods: 30)
        rig.send(1, 1, 0, seconds: 0.02)
        rig.render(periods: 30)
        let clean = thirdDifferences(of: (0..<4800).map { sinf(2 * .pi * 1000 * Float($0) / 48_000) }).max() ?? 0
        let heard = rig.recorded[0]
        let largest = thirdDifferences(of: heard).max() ?? 1
        // The rig's criterion: within three times a clean tone's (a send
        // moves by the fader law, as a fader pushed up from silence).
        #expect(largest < clean * 3, "largest third difference \(largest), a clean sine's \(clean)")
        #expect(heard[(20 * 64)..<(30 * 64)].contains { abs($0) > 0.99 }, "it talked")
        #expect(rig.last(1, 64).allSatisfy { $0 == 0 }, "and stopped")
    }

    @Test func theDimLowersTheProgrammeNotTheTalk() {
        let rig = Rig()
        rig.source = { _ in 0.25 }
        rig.talk[1] = { _ in 0.125 }
        rig.send(2, 1, 1)
        rig.dim(1, 0.1)
        rig.render(periods: 4)
        #expect(rig.last(1, 64).allSatisfy { abs($0 - (0.025 + 0.125)) < 1e-6 }, "\(rig.last(1, 4))")
        #expect(rig.last(2, 64).allSatisfy { $0 == 0.25 }, "another output untouched")
    }

    @Test func nothingATalkbackGivesPutsANonFiniteSampleOnAnOutput() {
        let rig = Rig()
        rig.talk[0] = { [Float.nan, .infinity, -.infinity, 1e38, .leastNonzeroMagnitude][$0 % 5] }
        rig.send(1, 1, 4)
        rig.render(periods: 8)
        #expect(rig.recorded[0].allSatisfy { $0.isFinite })
        #expect(rig.recorded[0].allSatisfy { $0 == 0 }, "none of it is a sample: \(rig.recorded[0].prefix(5))")
    }

    /// A send is forgotten with its output: one that comes back with the
    /// rig starts from silence, not from the talk it had.
    @Test func anOutputThatGoesAndComesBackDoesNotTalk() {
        let rig = Rig()
        rig.talk[0] = { _ in 1 }
        rig.send(1, 4, 1)
        rig.render(periods: 3)
        #expect(rig.last(4, 64).allSatisfy { $0 == 1 })
        rig.reshape(outputs: 2)
        rig.render(periods: 2)
        rig.reshape(outputs: 4)
        rig.render(periods: 2)
        #expect(rig.last(4, 128).allSatisfy { $0 == 0 }, "\(rig.last(4, 128).prefix(4))")
    }

    @Test func aTalkbackWithoutAnInputAddsNothingAndStillFollowsItsSends() {
        let rig = Rig()
        rig.talk[0] = { _ in 1 }
        rig.send(1, 1, 1)
        rig.render(periods: 2, talkbacks: 0)
        #expect(rig.last(1, 64).allSatisfy { $0 == 0 })
        rig.render(periods: 2, talkbacks: 1)
        #expect(rig.last(1, 64).allSatisfy { $0 == 1 }, "at its send at once: no ramp from a stale 0")
    }
}
