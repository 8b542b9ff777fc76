import Foundation
import Synchronization
import Testing
@testable import MixCore

/// A cue clock that maps each due time to the frame a test chose for it:
/// offline, periods are measured in frames.
final class ChosenFrames: CueClock, @unchecked Sendable {
    private let frames = Mutex<[Double: UInt32]>([:])
    /// A due time a little ahead (within the hand-over horizon) that maps to `frame`.
    func due(atFrame frame: UInt32, offset: Double = 0) -> Double {
        let time = Date().timeIntervalSince1970 + 0.2 + offset
        frames.withLock { $0[time] = frame }
        return time
    }
    func cueTime(atUnixTime time: Double) -> UInt64? { frames.withLock { $0[time] }.map(UInt64.init) }
}

/// Batches of any size in one period, timed batches at their frame, and a
/// control side that never waits: the allocate / hand over / free staging.
///
/// A change without a fade still glides over the rest of its period (the
/// kernel takes every gain linearly across a period): at its frame the
/// output has begun to move, and at the period's end it is there.
@Suite struct StagingTests {
    /// An attached rig (as in JACK) whose timed batches map through `clock`.
    func timedRig(inputs: Int = 2, outputs: Int = 2, frames: Int = 64) -> (OfflineRig, ChosenFrames) {
        let rig = OfflineRig(inputs: inputs, outputs: outputs, frames: frames)
        let clock = ChosenFrames()
        rig.mixer.use(clock: clock)
        rig.mixer.setAttached(true)
        return (rig, clock)
    }

    @Test(arguments: [64, 256])
    func aTimedBatchAppliesAtItsFrame(frames: Int) {
        let (rig, clock) = timedRig(frames: frames)
        let p = rig.mixer.parameters
        rig.playConstant(input: 1, 0.5)
        rig.render(periods: 2)
        // Due 37 frames into the fourth period from now.
        let frame = UInt32(rig.elapsedFrames + 3 * frames + 37)
        rig.mixer.submit([level(p.crosspoint(1, 1), 0)], due: clock.due(atFrame: frame))
        #expect(rig.mixer.timedBatches.handedOver == 1)
        rig.render(periods: 6)
        let out = rig.recorded[0]
        let periodEnd = (Int(frame) / frames + 1) * frames
        #expect(out[..<Int(frame)].allSatisfy { $0 == 0.5 }, "nothing changed before its frame")
        #expect(out[Int(frame)] < 0.5, "moving at its frame")
        #expect(out[periodEnd...].allSatisfy { $0 == 0 }, "silent from the end of its period")
        rig.mixer.service()
        #expect(rig.mixer.timedBatches == (0, 0), "handed back and freed")
        #expect(rig.mixer.queuedChanges == 0)
    }

    @Test func aTimedFadeStartsAtItsFrame() {
        let (rig, clock) = timedRig()
        let p = rig.mixer.parameters
        rig.playConstant(input: 1, 1)
        rig.render(periods: 1)
        let frame: UInt32 = 64 + 10
        rig.mixer.submit([level(p.crosspoint(1, 1), 0, seconds: 0.01)], due: clock.due(atFrame: frame))
        rig.render(periods: 20)
        let out = rig.recorded[0]
        #expect(out[..<Int(frame)].allSatisfy { $0 == 1 })
        #expect(out[Int(frame)] < 1 && out[Int(frame)] > 0.9, "the ramp's first step is at its frame")
        #expect(out[Int(frame) + 480 - 64] > 0, "it lasts 10 ms")
        #expect(out[(Int(frame) + 480) / 64 * 64 + 64] == 0, "to the end of the period where it lands")
    }

    @Test func cuesInOnePeriodApplyInFrameOrderAndTiesInArrivalOrder() {
        let (rig, clock) = timedRig()
        let p = rig.mixer.parameters
        rig.playConstant(input: 1, 1)
        rig.render(periods: 1)
        rig.mixer.submit([level(p.crosspoint(1, 1), 0.25)], due: clock.due(atFrame: 64 + 40, offset: 0.002))
        rig.mixer.submit([level(p.crosspoint(1, 1), 0.5)], due: clock.due(atFrame: 64 + 20))
        rig.mixer.submit([level(p.crosspoint(1, 1), 0.75)], due: clock.due(atFrame: 64 + 40, offset: 0.003))
        rig.render(periods: 2)
        let out = rig.recorded[0]
        #expect(out[64 + 19] == 1 && out[64 + 20] < 1, "the first cue at frame 20")
        #expect(out[64 + 39] == 0.5, "reached by the next cue's frame")
        #expect(out[64 + 40] > 0.5, "the second frame's cues: 0.25, then 0.75")
        #expect(out[127] == 0.75, "the later arrival at the same frame wins")
    }

    @Test func aLateCueAppliesAtTheStartOfThePeriod() {
        let (rig, clock) = timedRig()
        let p = rig.mixer.parameters
        rig.playConstant(input: 1, 1)
        rig.render(periods: 4)
        rig.mixer.submit([level(p.crosspoint(1, 1), 0)], due: clock.due(atFrame: 100))
        rig.render(periods: 1)
        #expect(rig.recorded[0][255] == 1 && rig.recorded[0][256] < 1, "moving from the period's first frame")
        #expect(rig.recorded[0].last == 0)
    }

    /// 130x130 = 16,900 crosspoints, every one changing, as one batch.
    @Test func aWholeLargeSceneChangesInOneFrame() {
        let size = 130
        let (rig, clock) = timedRig(inputs: size, outputs: size)
        let p = rig.mixer.parameters
        for n in 1...size { rig.playConstant(input: n, 1) }
        rig.render(periods: 2)
        var everything: [Change] = []
        for n in 1...size { for m in 1...size { everything.append(level(p.crosspoint(n, m), n == m ? 0 : 0.01)) } }
        #expect(everything.count == 16_900)
        let frame: UInt32 = 3 * 64 + 21
        rig.mixer.submit(everything, due: clock.due(atFrame: frame))
        rig.render(periods: 4)
        // Each output: 1 (its own input) before; 129 inputs at 0.01 after.
        let moving = rig.recorded.map { $0[Int(frame)] }
        #expect(rig.recorded.allSatisfy { $0[Int(frame) - 1] == 1 }, "nothing moved before the frame")
        #expect(moving.allSatisfy { $0 > 1 && abs($0 - moving[0]) < 1e-5 }, "every output moved at the frame, alike")
        #expect(rig.recorded.allSatisfy { abs($0[4 * 64] - 1.29) < 1e-4 }, "and arrived by the period's end")
    }

    @Test func aStalledAudioThreadNeverMakesTheControlSideWait() {
        let rig = OfflineRig(inputs: 1, outputs: 1, queueCapacity: 16)
        rig.mixer.setAttached(true) // as if JACK ran, but no period comes
        let p = rig.mixer.parameters
        rig.playConstant(input: 1, 1)
        for k in 1...5000 { rig.submit([level(p.crosspoint(1, 1), Float(k) / 5000 * 3)]) }
        // The backlog keeps only the last change per parameter past four scenes' worth.
        #expect(rig.mixer.queuedChanges <= 16 + 4 * rig.mixer.rampLayout.slots + 1)
        // Handed over a queue's worth a period: the backlog (which grows
        // with the ramp layout's slots) drains within as many periods as
        // it holds queues' worth, and a few more.
        for _ in 0..<(4 * rig.mixer.rampLayout.slots / 16 + 64) {
            rig.render(periods: 1)
            rig.mixer.service()
        }
        #expect(rig.recorded[0].last == 3)
        #expect(rig.mixer.queuedChanges == 0)
    }

    @Test func detachedTimedBatchesApplyByTheWallClock() async throws {
        let rig = OfflineRig(inputs: 1, outputs: 1)
        let clock = ChosenFrames()
        rig.mixer.use(clock: clock)
        rig.mixer.setAttached(true)
        let p = rig.mixer.parameters
        // Handed over, then JACK goes away before its frame comes.
        rig.mixer.submit([level(p.crosspoint(1, 1), 0.5)], due: clock.due(atFrame: 1_000_000))
        #expect(rig.mixer.timedBatches == (0, 1))
        rig.mixer.setAttached(false)
        rig.mixer.service()
        #expect(rig.mixer.timedBatches == (1, 0), "taken back to wait for its time")
        try await Task.sleep(for: .milliseconds(300))
        rig.mixer.service()
        #expect(rig.mixer.timedBatches == (0, 0))
        #expect(rig.mixer.offlineKernel.pointee.ramp(p.crosspoint(1, 1)).targetValue == 0.5)
    }
}

extension StagingTests {
    /// A cue splits the period for every output: the others go on sample
    /// for sample as if the period were whole.
    @Test(arguments: [1, 37, 63, 64, 100, 255])
    func aSplitPeriodLeavesTheOtherOutputsUntouched(offset: Int) {
        let (rig, clock) = timedRig(inputs: 3, outputs: 3, frames: 256)
        let p = rig.mixer.parameters
        for n in 1...3 { rig.playSine(input: n, frequency: 300 * Float(n), amplitude: 0.5) }
        rig.render(periods: 1)
        rig.mixer.submit([level(p.crosspoint(2, 2), 0)], due: clock.due(atFrame: UInt32(256 + offset)))
        rig.render(periods: 3)
        for n in [1, 3] {
            let expected = (0..<rig.elapsedFrames).map { rig.signals[n - 1]($0) }
            #expect(rig.recorded[n - 1] == expected, "output \(n)")
        }
        let out2 = rig.recorded[1]
        #expect(out2[..<(256 + offset)] == ArraySlice((0..<(256 + offset)).map { rig.signals[1]($0) }))
        #expect(out2[512...].allSatisfy { $0 == 0 })
    }
}
