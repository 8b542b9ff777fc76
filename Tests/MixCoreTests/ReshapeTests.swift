import Catalogue
import Foundation
import SceneModel
import Testing
@testable import MixCore

/// A rig changing size while it plays (`Mixer.reshape`): every channel that
/// stays plays on sample for sample, whatever fades, delays and timed
/// batches are under way; what is new is silent until routed.
@Suite struct ReshapeTests {
    /// Renders a mixer the way the JACK trampoline does: `begin` says how
    /// many buffers the period has, `render` mixes them. Inputs play
    /// `signal(n, t)`; outputs 1 and 2 are recorded.
    final class Player {
        let mixer: Mixer
        let frames: Int
        let inBuffers = (0..<Mixer.channelLimit).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: 256) }
        let outBuffers = (0..<Mixer.channelLimit).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: 256) }
        var recorded: [[Float]] = [[], []]
        var clock = 0
        let catalogue = Catalogue()

        init(scene: Scene, frames: Int = 64) {
            mixer = Mixer(scene: scene, panLaw: .balance, layout: OutputLayout(outputs: scene.outputCount))
            mixer.setSampleRate(48_000)
            mixer.setAttached(true)
            self.frames = frames
        }

        deinit { (inBuffers + outBuffers).forEach { $0.deallocate() } }

        static func signal(_ n: Int, _ t: Int) -> Float {
            sinf(2 * .pi * Float(n == 0 ? 1000 : 1500) * Float(t) / 48_000) * (n < 2 ? 0.5 : 0.9)
        }

        func render(periods: Int) {
            for _ in 0..<periods {
                let size = mixer.begin(frames: frames)
                for n in 0..<size.inputs { for k in 0..<frames { inBuffers[n][k] = Self.signal(n, clock + k) } }
                let ins = inBuffers.prefix(size.inputs).map { UnsafePointer($0) }
                let outs = Array(outBuffers.prefix(size.outputs))
                ins.withUnsafeBufferPointer { i in
                    outs.withUnsafeBufferPointer { o in mixer.render(inputs: i.baseAddress!, outputs: o.baseAddress!, directs: nil, frames: frames) }
                }
                for m in 0..<2 { recorded[m].append(contentsOf: UnsafeBufferPointer(start: outBuffers[m], count: frames)) }
                clock += frames
            }
        }

        /// To `inputs` x `outputs`, the new channels at their defaults and unrouted.
        func reshape(inputs: Int, outputs: Int) {
            var scene = Scene(inputs: inputs, outputs: outputs)
            scene.crosspoints = CrosspointMatrix(inputs: inputs, outputs: outputs)
            let ramps = catalogue.rampLayout(inputs: inputs, outputs: outputs)
            mixer.reshape(to: ramps, initial: catalogue.changes(toReach: scene, in: ramps, seconds: 0),
                          layout: OutputLayout(outputs: outputs))
        }

        func set(_ slot: Int, gain: Float, seconds: Float = 0) {
            mixer.submit([Change(ramp: Int32(slot), position: FaderLaw.position(gain: gain), value: gain, seconds: seconds)])
        }
    }

    /// Tones through 1 → 1 and 2 → 2, a 2 s fade on 1 → 1 and a delay on
    /// output 2 under way, while the rig goes 8 → 16 → 4 → 12 → 8 every few
    /// periods: both outputs equal, bit for bit, the same run without resizes.
    @Test func channelsThatStayPlayOnBitForBit() {
        func run(resizing: Bool) -> [[Float]] {
            var scene = Scene(inputs: 8, outputs: 8)
            scene.crosspoints = CrosspointMatrix(inputs: 8, outputs: 8)
            scene.crosspoints[1, 1] = 0.5
            scene.crosspoints[2, 2] = 0.25
            let player = Player(scene: scene)
            let p = Slots(ramps: player.mixer.rampLayout)
            player.set(p.crosspoint(1, 1), gain: 1, seconds: 2)
            player.mixer.submit([Change(ramp: Int32(p.outputDelay(2)), position: 0.003, value: 0.003, seconds: 0.01)])
            let sizes = [16, 4, 12, 8]
            for step in 0..<40 {
                player.render(periods: 7 + step % 5)
                if resizing { player.reshape(inputs: sizes[step % 4], outputs: sizes[(step + 1) % 4]) }
            }
            player.render(periods: 1600) // past the fade's end
            return player.recorded
        }
        let plain = run(resizing: false), resized = run(resizing: true)
        #expect(plain[0].count == resized[0].count)
        for m in 0..<2 {
            let differing = zip(plain[m], resized[m]).enumerated().first { $0.element.0 != $0.element.1 }
            #expect(differing == nil, "output \(m + 1) differs first at sample \(differing?.offset ?? -1)")
        }
        #expect(abs(plain[0].suffix(4800).map(abs).max()! - 0.5) < 1e-3, "the fade reached its target, gain 1")
    }

    /// A channel added is silent until routed, and one added where one was
    /// removed starts from the defaults, not from what was there.
    @Test func aNewChannelIsSilentUntilRouted() {
        var scene = Scene(inputs: 4, outputs: 4)
        scene.crosspoints = CrosspointMatrix(inputs: 4, outputs: 4)
        let player = Player(scene: scene)
        player.reshape(inputs: 2, outputs: 2)
        player.render(periods: 2)
        player.reshape(inputs: 4, outputs: 4)
        player.render(periods: 4)
        #expect(player.recorded.allSatisfy { $0.allSatisfy { $0 == 0 } })
        let p = Slots(ramps: player.mixer.rampLayout)
        player.set(p.crosspoint(2, 2), gain: 1)
        player.render(periods: 4)
        #expect(player.recorded[1].suffix(64) == (player.clock - 64..<player.clock).map { Player.signal(1, $0) }[...])
        #expect(player.mixer.offlineKernel.pointee.inputs == 4)
    }

    /// A timed batch waiting across a resize lands on its parameter's new
    /// slot; one for a crosspoint removed is dropped.
    @Test func aTimedBatchWaitingAcrossAResizeIsRestaged() {
        let small = Catalogue().rampLayout(inputs: 3, outputs: 3)
        let large = Catalogue().rampLayout(inputs: 20, outputs: 5)
        let remap = small.remap(to: large)
        #expect(remap[small.crosspoint(3, 2)] == Int32(large.crosspoint(3, 2)))
        #expect(large.remap(to: small)[large.crosspoint(17, 2)] == -1)
        let runs = KernelSwap.runs(of: remap)
        #expect(runs.allSatisfy { $0.from % 16 == 0 && $0.to % 16 == 0 })
        #expect(runs.reduce(0) { $0 + Int($1.count) } == remap.filter { $0 >= 0 }.count)
    }
}
