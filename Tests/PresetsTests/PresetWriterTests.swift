import Dispatch
import Foundation
import Glibc
import Presets
import Synchronization
import Testing

/// The preset writer's thread: out of the way while the rig plays
/// (SCHED_IDLE), but not starved once someone waits for it (the rig's exit).
@Suite struct PresetWriterTests {
    /// The policy and nice value of the thread that runs a job.
    struct Scheduling: Equatable { var policy: Int32; var nice: Int32 }

    static func scheduling() -> Scheduling {
        errno = 0
        return Scheduling(policy: sched_getscheduler(0), nice: getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
    }

    @Test func aWaiterRaisesAnIdleWriterToNiceTen() async throws {
        let writer = PresetWriter()
        let base = Self.scheduling().nice // the process's own, which a SCHED_IDLE thread keeps
        let seen = Mutex<[Scheduling]>([])
        let release = DispatchSemaphore(value: 0)
        // A job that blocks keeps the writer's thread alive while the waiter comes.
        writer.submit {
            seen.withLock { $0.append(Self.scheduling()) }
            release.wait()
            seen.withLock { $0.append(Self.scheduling()) }
        }
        let waited = Atomic<Bool>(false)
        let waiter = Thread { writer.waitUntilIdle(); waited.store(true, ordering: .releasing) }
        waiter.start()
        try await Task.sleep(for: .milliseconds(200)) // the waiter has raised the running writer
        let returnedEarly = waited.load(ordering: .acquiring)
        #expect(!returnedEarly, "waitUntilIdle returned before the jobs ran")
        release.signal()
        while !waited.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(5)) }
        let (before, after) = try seen.withLock { (try #require($0.first), try #require($0.last)) }
        // SCHED_IDLE (5) where the machine allows it, else nice +10; then SCHED_OTHER at nice +10.
        #expect(before == Scheduling(policy: 5, nice: base) || before == Scheduling(policy: SCHED_OTHER, nice: PresetWriter.niceness),
                "\(before)")
        #expect(after == Scheduling(policy: SCHED_OTHER, nice: PresetWriter.niceness), "\(after)")
        // And every writer thread after it (the rig is on its way out).
        let later = Mutex<Scheduling?>(nil)
        writer.submit { later.withLock { $0 = Self.scheduling() } }
        writer.waitUntilIdle()
        #expect(later.withLock { $0 } == Scheduling(policy: SCHED_OTHER, nice: PresetWriter.niceness))
    }
}
