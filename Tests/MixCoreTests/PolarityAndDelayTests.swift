import Foundation
import MixCore
import Testing

/// The two stages the catalogue's proof parameters reach: a polarity gain
/// that ramps through zero, and the outputs' delay lines.
@Suite struct PolarityAndDelayTests {
    @Test func invertingRampsThroughSilenceToTheNegative() {
        let rig = OfflineRig(inputs: 1, outputs: 1)
        let p = rig.mixer.parameters
        rig.playConstant(input: 1, 0.5)
        rig.render(periods: 2)
        rig.submit([linear(p.sourceInvert(1), -1, seconds: 0.02)])
        rig.render(seconds: 0.05)
        let samples = rig.recorded[0]
        // 20 ms from +0.5 to -0.5: 1/960 per sample at most, through 0 half way.
        #expect(rig.largestStep(output: 1) < 1.5 / 960)
        #expect(samples.last == -0.5)
        #expect(abs(samples[128 + 480]) < 0.01)
    }

    @Test func aDelayedImpulseArrivesThatManySamplesLater() {
        let rig = OfflineRig(inputs: 1, outputs: 1, frames: 256)
        let p = rig.mixer.parameters
        rig.submit([linear(p.outputDelay(1), 0.0125, seconds: 0.01)]) // 600 samples at 48 kHz
        rig.render(seconds: 0.1)
        let start = rig.elapsedFrames
        rig.signals[0] = { $0 == start + 100 ? 1 : 0 }
        rig.render(seconds: 0.05)
        let peak = rig.recorded[0].indices.max { abs(rig.recorded[0][$0]) < abs(rig.recorded[0][$1]) } ?? 0
        #expect(peak == start + 100 + 600)
        #expect(rig.recorded[0][peak] == 1)
        #expect(rig.mixer.offlineKernel.pointee.delays.tap(output: 0) == 600)
    }

    @Test(arguments: [(0.0, 0.01), (0.01, 0.004), (0.004, 0.0)])
    func aDelayChangeDuringAToneNeverSteps(from: Double, to: Double) {
        let rig = OfflineRig(inputs: 1, outputs: 1, frames: 128)
        let p = rig.mixer.parameters
        rig.playSine(input: 1, frequency: 500, amplitude: 0.5)
        rig.submit([linear(p.outputDelay(1), Float(from), seconds: 0.02)])
        rig.render(seconds: 0.2)
        rig.submit([linear(p.outputDelay(1), Float(to), seconds: 0.02)])
        rig.render(seconds: 0.2)
        // The tone's own steepest step: 0.5 · 2π · 500 / 48000 ≈ 0.033.
        let slope: Float = 0.5 * 2 * .pi * 500 / 48_000
        let steps = zip(rig.recorded[0].dropFirst(), rig.recorded[0]).map { abs($0 - $1) }
        #expect((steps.max() ?? 1) < slope * 1.05)
        #expect(rig.recorded[0].allSatisfy { $0.isFinite })
        // Settled on the new delay: the tone, delayed.
        let end = rig.recorded[0].count
        let wanted = Int((to * 48_000).rounded())
        for k in (end - 100)..<end {
            let expected = 0.5 * sin(2 * Double.pi * 500 * Double(k - wanted) / 48_000)
            #expect(abs(Double(rig.recorded[0][k]) - expected) < 1e-4)
        }
    }

    /// Raised from 0, the output fades out whole before the delayed signal
    /// fades in: a DC level must never drop to silence in one sample.
    @Test(arguments: [0.005, 0.00002])
    func aDelayRaisedFromZeroFadesTheOutputOut(to seconds: Double) {
        let rig = OfflineRig(inputs: 1, outputs: 1, frames: 64)
        let p = rig.mixer.parameters
        rig.playConstant(input: 1, 0.5)
        rig.render(periods: 4)
        rig.submit([linear(p.outputDelay(1), Float(seconds), seconds: 0.02)])
        rig.render(seconds: 0.1)
        // 20 ms is 960 samples: 0.5 / 960 a sample at most, with room for the kinks.
        #expect(rig.largestStep(output: 1) < 0.5 / 960 * 2.5, "largest step \(rig.largestStep(output: 1))")
        #expect(rig.recorded[0].last == 0.5)
    }

    /// The same on a sine, judged by the third difference, which a cut or a
    /// kink shows even at a zero crossing: no larger than a clean sine's, with
    /// room for the crossfade's two gentle kinks.
    @Test(arguments: [0.005, 0.00002])
    func aDelayRaisedFromZeroDuringAToneNeverClicks(to seconds: Double) {
        let rig = OfflineRig(inputs: 1, outputs: 1, frames: 64)
        let p = rig.mixer.parameters
        rig.playSine(input: 1, frequency: 1000, amplitude: 0.5)
        rig.render(periods: 7) // 448 samples: not at a zero crossing of 1 kHz
        rig.submit([linear(p.outputDelay(1), Float(seconds), seconds: 0.02)])
        rig.render(seconds: 0.1)
        let clean = thirdDifferences(of: (0..<4800).map { 0.5 * sinf(2 * .pi * 1000 * Float($0) / 48_000) }).max() ?? 0
        let largest = thirdDifferences(of: rig.recorded[0]).max() ?? 1
        #expect(largest < clean * 3, "largest third difference \(largest), a clean sine's \(clean)")
    }
}
