import Delivery
import Foundation
import MixCore
import OSC
import RigControl
import Synchronization
import Testing

/// A cue clock the test moves by hand: a Unix time maps to microseconds
/// from `origin`, and the audio has got as far as `processed`.
final class HandClock: AudioClock, @unchecked Sendable {
    let origin: Double
    let processed = Mutex<UInt64?>(nil)
    init(origin: Double) { self.origin = origin }
    func cueTime(atUnixTime time: Double) -> UInt64? { UInt64(max(0, (time - origin) * 1e6)) }
    func lastProcessedCueTime() -> UInt64? { processed.withLock { $0 } }
}

/// The control side's bundles come due when the audio has applied them:
/// once the audio thread has processed the period that holds their time on
/// the cue clock, the same rule it applies them by (`PeriodSpan`), not by an
/// estimate of their frame. A message that arrives after the audio applied a
/// bundle then always follows it (a scheduler that released the bundle a
/// period later let such a message be overwritten by it: caught by
/// `crosspoint-probe timetag`, whose reset after each cue was lost).
@Suite struct BundleSchedulerClockTests {
    @Test func aBundleIsDueExactlyWhenTheAudioHasPassedItsTime() {
        // An hour ahead by the wall clock: only the audio's progress can make it due.
        let now = Date().timeIntervalSince1970
        let clock = HandClock(origin: now)
        let scheduler = BundleScheduler(clock: clock)
        let message = OSCMessage("/matrix/1/1", [.float(1), .float(0)])
        let refused = scheduler.schedule([message], at: now + 3600, from: peer, staged: [], bytes: 64)
        #expect(refused == nil)
        let due = UInt64(3600 * 1e6)
        clock.processed.withLock { $0 = due - 1_333 } // the period before
        #expect(scheduler.takeDue().isEmpty, "not before the audio reached it")
        clock.processed.withLock { $0 = due } // a period ending at its time: the cue is in the next
        #expect(scheduler.takeDue().isEmpty, "not before the audio processed its period")
        clock.processed.withLock { $0 = due + 1 } // the period that holds it is done
        #expect(scheduler.takeDue().count == 1, "due once the audio applied it")
        #expect(scheduler.waiting == 0)
    }
}

/// A bundle whose time has passed by the wall clock but not yet by the audio
/// (a busy machine's callback runs late) still lands at its frame: applied at
/// once, it landed up to a period before its time (CI's run of e5c0fcb: a
/// netjack2 master's cue 76 frames early, with no `/late`).
@Suite struct LaggingAudioTests {
    func controller(processedSecondsAfterOrigin processed: Double) -> (Controller, BundleScheduler, Double) {
        let now = Date().timeIntervalSince1970
        let clock = HandClock(origin: now - 1)
        clock.processed.withLock { $0 = UInt64((1 + processed) * 1e6) }
        let scheduler = BundleScheduler(clock: clock)
        return (makeController(scheduler: scheduler), scheduler, now)
    }

    @Test func aBundleJustPastItsTimeWaitsForTheAudioThatHasNotReachedIt() {
        // The audio has got 20 ms behind the wall clock; the bundle is 5 ms late by it.
        let (c, scheduler, now) = controller(processedSecondsAfterOrigin: -0.02)
        #expect(scheduler.audioHasYetToReach(now - 0.005))
        let replies = c.handle(.bundle([OSCMessage("/matrix/1/1", [.float(0)])], at: OSCTimeTag(unixTime: now - 0.005)), from: peer)
        #expect(replies.isEmpty, "no /late: it lands at its time")
        #expect(scheduler.waiting == 1)
        #expect(c.mixer.timedBatches.waiting == 1, "its changes go to the audio stamped with their time")
        #expect(c.lateBundleCount == 0)
    }

    @Test func aBundleTheAudioHasPassedAppliesAtOnceAndIsLate() {
        let (c, scheduler, now) = controller(processedSecondsAfterOrigin: 0)
        #expect(!scheduler.audioHasYetToReach(now - 0.005))
        let replies = c.handle(.bundle([OSCMessage("/matrix/1/1", [.float(0)])], at: OSCTimeTag(unixTime: now - 0.005)), from: peer)
        #expect(replies.first.map { if case .message(let m) = $0 { m.address == "/late" } else { false } } == true, "\(replies)")
        #expect(scheduler.waiting == 0)
        #expect(c.scene.crosspoints[1, 1] == 0)
    }
}
