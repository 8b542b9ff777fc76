import Catalogue
import Foundation
import SystemSupport
import Testing
@testable import MixCore
import SceneModel

/// The mixer as the README defines it, written plainly: one scalar `Ramp`
/// per parameter, every gain of every crosspoint folded from scratch at the
/// start and end of each period, and each sample weighted by the gain
/// linearly in between. The optimised kernel (ramps in SIMD chunks, rows
/// folded only when they move, lists of crosspoints in use, four-output
/// tiles) must render the same audio.
final class ReferenceMixer {
    let inputs: Int, outputs: Int
    let parameters: Slots
    let panLaw: PanLaw
    let sides: [OutputLayout.Side]
    var ramps: [Ramp]

    init(scene: Scene, panLaw: PanLaw, layout sideLayout: OutputLayout) {
        inputs = scene.inputCount
        outputs = scene.outputCount
        let catalogue = Catalogue()
        let layout = catalogue.rampLayout(inputs: inputs, outputs: outputs)
        parameters = Slots(ramps: layout)
        self.panLaw = panLaw
        sides = sideLayout.sides
        let changes = catalogue.changes(toReach: scene, in: layout, seconds: 0)
        ramps = (0..<layout.slots).map { Ramp(shape: layout.shape(ofSlot: $0), position: 0, value: 0) }
        for change in changes {
            let index = Int(change.ramp)
            ramps[index] = Ramp(shape: layout.shape(ofSlot: index), position: change.position, value: change.value)
        }
        previous = []
        previous = gains()
    }

    /// The gains at the end of the last period: where this one starts, whatever
    /// changes arrived since.
    var previous: [[Float]]

    func apply(_ change: Change, sampleRate: Int) {
        let seconds = min(max(change.seconds, 0), 3600)
        ramps[Int(change.ramp)].start(toPosition: change.position, value: change.value,
                                      samples: Int(seconds * Float(sampleRate)))
    }

    func gains() -> [[Float]] {
        let p = parameters
        let master = ramps[p.masterVolume].value * ramps[p.masterMute].value
        return (1...outputs).map { m in
            let out = ramps[p.outputVolume(m)].value * ramps[p.outputMute(m)].value * master
            return (1...inputs).map { n in
                let source = ramps[p.sourceVolume(n)].value * ramps[p.sourceMute(n)].value * ramps[p.sourceSolo(n)].value
                    * ramps[p.sourceInvert(n)].value
                let pan = panLaw.gains(pan: ramps[p.sourcePan(n)].value)
                let side: Float = switch sides[m - 1] {
                case .mono: 1
                case .left: pan.left
                case .right: pan.right
                }
                let gain = ramps[p.crosspoint(n, m)].value * source * side * out
                return abs(gain) >= 1e-20 && abs(gain) <= 1e6 ? gain : 0
            }
        }
    }

    func render(_ x: [[Float]], frames: Int) -> [[Float]] {
        let g0 = previous
        for i in ramps.indices { _ = ramps[i].advance(frames: frames) }
        let g1 = gains()
        previous = g1
        return (0..<outputs).map { m in
            (0..<frames).map { k in
                let t = Float(k + 1) / Float(frames)
                var sum: Float = 0
                for n in 0..<inputs { sum += (g0[m][n] + (g1[m][n] - g0[m][n]) * t) * x[n][k] }
                let magnitude = abs(sum)
                return magnitude >= 1e-30 && magnitude <= 1e30 ? sum : 0
            }
        }
    }
}


@Suite struct KernelReferenceTests {
    /// Random rigs, random traffic (fades, jumps, pans, mutes, solos, output
    /// and master moves), dense and sparse rows, settled and ramping, several
    /// period sizes (tails of fewer than 64 frames among them), on every SIMD
    /// path this CPU runs: the kernel matches the plain model within 10⁻⁶ of
    /// the level the inputs could reach (Σ|x|·16, plus 1).
    @Test(arguments: SIMDPath.available,
          [(3, 5, 64), (8, 8, 64), (17, 9, 128), (33, 12, 100), (5, 4, 16), (64, 8, 256), (20, 20, 64), (40, 14, 64)])
    func matchesThePlainModel(simd: SIMDPath, shape: (inputs: Int, outputs: Int, frames: Int)) {
        let (inputs, outputs, frames) = shape
        var random = SplitMix(seed: UInt64(inputs * 1000 + outputs * 10 + frames))
        var scene = Scene(inputs: inputs, outputs: outputs)
        // Half the rigs fully routed (four-output tiles), half sparse.
        let dense = (inputs + outputs) % 2 == 0
        for n in 1...inputs {
            for m in 1...outputs where dense || Float.random(in: 0..<1, using: &random) < 0.3 {
                scene.crosspoints[n, m] = Float.random(in: 0.05...2, using: &random)
            }
        }
        let layout = OutputLayout(outputs: outputs, monoOutputs: [3])
        let rate = 48_000
        let mixer = Mixer(scene: scene, panLaw: .constantPower, layout: layout, simd: simd)
        #expect(mixer.offlineKernel.pointee.simd == simd)
        mixer.setSampleRate(rate)
        let reference = ReferenceMixer(scene: scene, panLaw: .constantPower, layout: layout)
        let p = mixer.parameters

        let inBuffers = (0..<inputs).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: frames) }
        let outBuffers = (0..<outputs).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: frames) }
        defer { (inBuffers + outBuffers).forEach { $0.deallocate() } }
        let inPointers = inBuffers.map { UnsafePointer($0) }
        var worst: Float = 0
        for period in 0..<300 {
            var changes: [Change] = []
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let seconds: Float = [0, 0.001, 0.004, 0.02][Int.random(in: 0..<4, using: &random)]
                let gain: Float = Bool.random(using: &random) ? 0 : Float.random(in: 0.01...3, using: &random)
                let n = Int.random(in: 1...inputs, using: &random), m = Int.random(in: 1...outputs, using: &random)
                switch Int.random(in: 0..<10, using: &random) {
                case 0...4: changes.append(level(p.crosspoint(n, m), gain, seconds: seconds))
                case 5: changes.append(level(p.sourceVolume(n), gain, seconds: seconds))
                case 6: changes.append(linear(p.sourcePan(n), Float.random(in: -1...1, using: &random), seconds: seconds))
                case 7: changes.append(linear(Bool.random(using: &random) ? p.sourceMute(n) : p.sourceSolo(n),
                                              Bool.random(using: &random) ? 0 : 1, seconds: seconds))
                case 8: changes.append(Bool.random(using: &random) ? level(p.outputVolume(m), gain, seconds: seconds)
                                                                 : linear(p.outputMute(m), Bool.random(using: &random) ? 0 : 1, seconds: seconds))
                default: changes.append(level(p.masterVolume, max(gain, 0.5), seconds: seconds))
                }
            }
            if period == 150 { // everything back to a fully routed rig in one period
                for n in 1...inputs { for m in 1...outputs { changes.append(level(p.crosspoint(n, m), 0.5, seconds: 0.002)) } }
            }
            mixer.submit(changes)
            for change in changes { reference.apply(change, sampleRate: rate) }

            var x: [[Float]] = []
            for n in 0..<inputs {
                let samples = (0..<frames).map { _ in Float.random(in: -1...1, using: &random) }
                inBuffers[n].update(from: samples, count: frames)
                x.append(samples)
            }
            inPointers.withUnsafeBufferPointer { ins in
                outBuffers.withUnsafeBufferPointer { outs in
                    mixer.process(inputs: ins.baseAddress!, outputs: outs.baseAddress!, frames: frames)
                }
            }
            let expected = reference.render(x, frames: frames)
            for m in 0..<outputs {
                for k in 0..<frames {
                    let scale = (0..<inputs).reduce(Float(1)) { $0 + abs(x[$1][k]) } * 16
                    worst = max(worst, abs(outBuffers[m][k] - expected[m][k]) / scale)
                }
            }
        }
        #expect(worst < 1e-6, "\(simd): largest difference, relative to the input level: \(worst)")
    }

    /// After every fade has landed, a crosspoint routed at unity again passes
    /// its input bit for bit, and the rows fall back to their lists.
    @Test func landsBitExactAndListsOnlyWhatIsInUse() {
        let rig = OfflineRig(inputs: 4, outputs: 4)
        let p = rig.mixer.parameters
        for n in 1...4 { rig.playSine(input: n, frequency: 300 * Float(n), amplitude: 0.5) }
        rig.submit((1...4).flatMap { n in (1...4).map { m in level(p.crosspoint(n, m), 0.7, seconds: 0.01) } })
        rig.render(seconds: 0.05)
        #expect(rig.mixer.offlineKernel.pointee.inputsInUse(output: 2) == [0, 1, 2, 3])
        rig.submit((1...4).flatMap { n in (1...4).map { m in level(p.crosspoint(n, m), n == m ? 1 : 0, seconds: 0.01) } })
        rig.render(seconds: 0.05)
        let settled = rig.mixer.offlineKernel.pointee.isSettled
        #expect(settled)
        #expect(rig.mixer.offlineKernel.pointee.inputsInUse(output: 2) == [2])
        let before = rig.elapsedFrames
        rig.render(periods: 4)
        for n in 1...4 {
            let expected = (before..<rig.elapsedFrames).map { rig.signals[n - 1]($0) }
            #expect(Array(rig.recorded[n - 1][before...]) == expected, "output \(n)")
        }
    }
}

@Suite struct RampRatioTests {
    /// Long fades advance level ramps by a per-period ratio; the gain must
    /// stay on the fader law (computed exactly from the position) throughout.
    @Test(arguments: [64, 100, 256])
    func longFadesStayOnTheLaw(frames: Int) {
        let rig = OfflineRig(inputs: 2, outputs: 2, frames: frames)
        let p = rig.mixer.parameters
        rig.submit([level(p.crosspoint(1, 2), 0.001), level(p.crosspoint(2, 1), 4)])
        rig.render(periods: 2)
        rig.submit([level(p.crosspoint(1, 2), 4, seconds: 8), level(p.crosspoint(2, 1), 0, seconds: 8),
                    level(p.sourceVolume(1), 0.25, seconds: 5)])
        var worst: Float = 0
        for _ in 0..<(9 * 48_000 / frames) {
            rig.render(periods: 1)
            for ramp in [p.crosspoint(1, 2), p.crosspoint(2, 1), p.sourceVolume(1)] {
                let state = rig.mixer.offlineKernel.pointee.ramp(ramp)
                let exact = state.remaining == 0 ? state.targetValue : FaderLaw.gain(position: state.position)
                if exact > 0 { worst = max(worst, abs(state.value - exact) / exact) }
                else { #expect(state.value == 0) }
            }
        }
        // 5·10⁻⁵ is 0.0004 dB: the ratios drift by rounding for at most 64 periods.
        #expect(worst < 5e-5, "largest relative gain error: \(worst)")
        #expect(rig.mixer.offlineKernel.pointee.value(ofRamp: p.crosspoint(1, 2)) == 4)
    }

    /// A level moving by its ratio keeps no stepped position: a fade that
    /// takes over from one under way starts where the gain stands (no jump),
    /// and every segment of the law it then crosses, silence included, is
    /// taken exactly.
    @Test(arguments: [64, 100])
    func aFadeTakesOverWhereTheLastStands(frames: Int) {
        let rig = OfflineRig(inputs: 1, outputs: 1, frames: frames)
        let p = rig.mixer.parameters
        let ramp = p.crosspoint(1, 1)
        func state() -> Ramp { rig.mixer.offlineKernel.pointee.ramp(ramp) }
        rig.submit([level(ramp, 0.001)])
        rig.render(periods: 2)
        rig.submit([level(ramp, 4, seconds: 6)])
        rig.render(periods: 2 * 48_000 / frames) // two seconds up: past −30 dB
        let before = state()
        rig.submit([level(ramp, 0, seconds: 3)])
        rig.render(periods: 1)
        let after = state()
        // One period of the new fade from where the old one stood, not from its start.
        let slope = abs(after.targetPosition - before.position) / Float(3 * 48_000) * Float(frames)
        #expect(abs(after.position - before.position) <= slope * 1.01 + 1e-6,
                "from \(before.position) to \(after.position), at most \(slope) a period")
        var worst: Float = 0
        for _ in 0..<(4 * 48_000 / frames) {
            rig.render(periods: 1)
            let s = state()
            let exact = s.remaining == 0 ? s.targetValue : FaderLaw.gain(position: s.position)
            if exact > 0 { worst = max(worst, abs(s.value - exact) / exact) }
            else { #expect(s.value == 0) }
        }
        #expect(worst < 5e-5, "largest relative gain error: \(worst)")
        #expect(rig.mixer.offlineKernel.pointee.value(ofRamp: ramp) == 0)
    }
}
