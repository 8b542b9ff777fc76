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
