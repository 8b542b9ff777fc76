import Foundation
import Testing
@testable import MixCore

/// A level change to `gain`, ramping by fader law over `seconds`.
func level(_ ramp: Int, _ gain: Float, seconds: Float = 0) -> Change {
    Change(ramp: Int32(ramp), position: FaderLaw.position(gain: gain), value: gain, seconds: seconds)
}

/// A linear change (pan, mute gate, solo gate).
func linear(_ ramp: Int, _ value: Float, seconds: Float = 0) -> Change {
    Change(ramp: Int32(ramp), position: value, value: value, seconds: seconds)
}

@Suite struct RenderKernelTests {
    @Test func defaultSceneIsBitExactIdentity() {
        let rig = OfflineRig(inputs: 3, outputs: 4)
        for n in 1...3 { rig.playSine(input: n, frequency: 200 * Float(n), amplitude: 0.3 * Float(n)) }
        rig.render(periods: 20)
        for n in 1...3 {
            let expected = (0..<rig.elapsedFrames).map { rig.signals[n - 1]($0) }
            #expect(rig.recorded[n - 1] == expected, "output \(n)")
        }
        #expect(rig.recorded[3].allSatisfy { $0 == 0 })
    }

    @Test func crosspointsSumIntoAnOutput() {
        let rig = OfflineRig(inputs: 2, outputs: 2)
        let p = rig.mixer.parameters
        rig.playConstant(input: 1, 0.25)
        rig.playConstant(input: 2, 0.5)
        rig.submit([level(p.crosspoint(1, 2), 2), level(p.crosspoint(2, 2), 0.5)])
        rig.render(periods: 2)
        let expected: Float = 0.25 * 2 + 0.5 * 0.5
        #expect(rig.recorded[1].last == expected)
        #expect(rig.recorded[0].last == 0.25)
    }

    @Test func everyGainInTheChainMultiplies() {
        let rig = OfflineRig(inputs: 1, outputs: 1)
        let p = rig.mixer.parameters
        rig.playConstant(input: 1, 1)
        rig.submit([level(p.sourceVolume(1), 0.5), level(p.crosspoint(1, 1), 2),
                    level(p.outputVolume(1), 0.25), level(p.masterVolume, 3)])
        rig.render(periods: 2)
        let expected: Float = 0.5 * 2 * 0.25 * 3
        #expect(abs((rig.recorded[0].last ?? 0) - expected) < 1e-6)
        rig.submit([linear(p.masterMute, 0)])
        rig.render(periods: 2)
        #expect(rig.recorded[0].last == 0)
    }

    @Test(arguments: PanLaw.allCases)
    func panActsOnStereoPairsOnly(law: PanLaw) {
        // Outputs 1+2 are a pair, 3 is mono.
        let rig = OfflineRig(inputs: 1, outputs: 3, panLaw: law)
        let p = rig.mixer.parameters
        rig.playConstant(input: 1, 1)
        rig.submit([level(p.crosspoint(1, 2), 1), level(p.crosspoint(1, 3), 1), linear(p.sourcePan(1), 0.4)])
        rig.render(periods: 2)
        let (l, r) = law.gains(pan: 0.4)
        #expect(abs((rig.recorded[0].last ?? 0) - l) < 1e-6)
        #expect(abs((rig.recorded[1].last ?? 0) - r) < 1e-6)
        #expect(rig.recorded[2].last == 1)
    }

    @Test func aFullScaleStepNeverJumps() {
        // Crosspoint 0 → 4 (full scale) on a full-scale 1 kHz sine, default 20 ms.
        let rig = OfflineRig(inputs: 1, outputs: 1)
        let p = rig.mixer.parameters
        rig.playSine(input: 1, frequency: 1000, amplitude: 1)
        rig.submit([level(p.crosspoint(1, 1), 0)])
        rig.render(periods: 4)
        rig.submit([level(p.crosspoint(1, 1), 4, seconds: 0.02)])
        rig.render(seconds: 0.1)
        // A sine of amplitude A moves at most 2πf/rate·A per sample; the gain
        // ramp adds at most its own slope. Without smoothing the step would be ~4.
        let sineSlope: Float = 2 * .pi * 1000 / 48_000
        #expect(rig.largestStep(output: 1) <= 4 * sineSlope + 0.05)
        #expect(abs((rig.recorded[0].suffix(480).max() ?? 0) - 4) < 0.01)
    }

    @Test func aMuteRampsToSilence() {
        let rig = OfflineRig(inputs: 1, outputs: 1)
        let p = rig.mixer.parameters
        rig.playConstant(input: 1, 1)
        rig.render(periods: 2)
        rig.submit([linear(p.sourceMute(1), 0, seconds: 0.02)])
        rig.render(seconds: 0.05)
        let samples = rig.recorded[0]
        // 20 ms at 48 kHz = 960 samples from 1 to 0: about 1/960 per sample.
        #expect(rig.largestStep(output: 1) < 1.5 / 960)
        #expect(samples.last == 0)
        #expect(samples[128 + 480] > 0.4 && samples[128 + 480] < 0.6)
    }

    @Test func aFadeIsHalfwayInFaderPositionAtHalfTime() {
        // 1.0 (position 0.75) to silence (position 0) over 2 s: at 1 s the
        // fader is at 0.375, which the law puts at 80·0.375 − 50 = −20 dB.
        let rig = OfflineRig(inputs: 1, outputs: 1)
        let p = rig.mixer.parameters
        rig.playSine(input: 1, frequency: 1000, amplitude: 1)
        rig.submit([level(p.crosspoint(1, 1), 0, seconds: 2)])
        rig.render(seconds: 2.1)
        let window = 48_000 - 240..<48_000 + 240
        let db = 20 * log10f(rig.rms(output: 1, window) * Float(2).squareRoot())
        #expect(abs(db - -20) < 0.25, "level at half time: \(db) dB")
        #expect(rig.recorded[0].suffix(480).allSatisfy { $0 == 0 })
    }

    @Test func retargetingMidFadeDoesNotJump() {
        let rig = OfflineRig(inputs: 1, outputs: 1)
        let p = rig.mixer.parameters
        rig.playSine(input: 1, frequency: 1000, amplitude: 1)
        rig.submit([level(p.crosspoint(1, 1), 0, seconds: 1)])
        rig.render(seconds: 0.3)
        rig.submit([level(p.crosspoint(1, 1), 4, seconds: 0.02)])
        rig.render(seconds: 0.3)
        let sineSlope: Float = 2 * .pi * 1000 / 48_000
        #expect(rig.largestStep(output: 1) <= 4 * sineSlope + 0.05)
    }

    @Test func aFullQueueLosesNothing() {
        let rig = OfflineRig(inputs: 1, outputs: 1, queueCapacity: 16)
        let p = rig.mixer.parameters
        rig.playConstant(input: 1, 1)
        // 1000 batches through an inbox of 16, with no audio thread: the
        // control side applies what does not fit.
        for k in 1...1000 { rig.submit([level(p.crosspoint(1, 1), Float(k) / 1000 * 3)]) }
        rig.render(periods: 2)
        #expect(rig.recorded[0].last == 3)
        #expect(rig.mixer.queuedChanges == 0)
    }

    @Test func aBatchLandsInOnePeriod() {
        let rig = OfflineRig(inputs: 4, outputs: 4)
        let p = rig.mixer.parameters
        for n in 1...4 { rig.playConstant(input: n, 1) }
        rig.submit((1...4).map { level(p.crosspoint($0, $0), 0) })
        rig.render(periods: 1)
        // All four crosspoints ramped in the same period: identical outputs.
        for m in 2...4 { #expect(rig.recorded[m - 1] == rig.recorded[0]) }
    }

    @Test func nonFiniteAndDenormalInputsNeverReachAnOutput() {
        let rig = OfflineRig(inputs: 3, outputs: 2)
        rig.signals[0] = { $0 % 3 == 0 ? .nan : ($0 % 3 == 1 ? .infinity : Float(bitPattern: 1)) }
        rig.signals[1] = { _ in -.infinity }
        rig.render(periods: 3)
        #expect(rig.recorded.joined().allSatisfy { $0 == 0 })
    }

    @Test func shortPeriodsUseTheScalarPath() {
        let rig = OfflineRig(inputs: 2, outputs: 2, frames: 16)
        let p = rig.mixer.parameters
        rig.playConstant(input: 1, 1)
        rig.submit([level(p.crosspoint(1, 2), 0.5, seconds: 0.01)])
        rig.render(seconds: 0.02)
        #expect(rig.recorded[1].last == 0.5)
        #expect(rig.largestStep(output: 2) < 0.01)
    }
}
