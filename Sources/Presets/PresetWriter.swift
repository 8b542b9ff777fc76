import Dispatch
import Glibc
import Synchronization
import SystemSupport

/// Writes preset files one after another, in the order they were asked for,
/// on a thread of its own ("preset-writer"): the thread that handles OSC
/// hands a write over and goes on with the next message instead of waiting
/// for the disk (a durable write is two fsyncs: a millisecond or two on a
/// quiet disk, far more on a busy one; and a 64x64 preset takes a few
/// milliseconds to encode). `PresetStore` queues its background saves,
/// deletes and renames here.
///
/// The thread starts with the first job and ends when none is left. It runs
/// under SCHED_IDLE (else at nice +10): when the cores are busy, control and
/// audio come before the disk, and a save's reply waits a little longer.
public final class PresetWriter: Sendable {
    /// The niceness of the writer's thread, where SCHED_IDLE is refused.
    public static let niceness: Int32 = 10
    /// Linux's SCHED_IDLE (sched.h; not exported to Swift by Glibc).
    static let idlePolicy: Int32 = 5

    private struct Jobs {
        /// In order; a job is dropped (nil) once taken, and the array emptied when all are.
        var waiting: [(@Sendable () -> Void)?] = []
        var next = 0
        var running = false
    }

    private let jobs = Mutex<Jobs>(Jobs())

    public init() {}

    /// Runs `job` on the writer's thread after every job submitted before it.
    public func submit(_ job: @escaping @Sendable () -> Void) {
        let start = jobs.withLock { jobs -> Bool in
            jobs.waiting.append(job)
            defer { jobs.running = true }
            return !jobs.running
        }
        guard start else { return }
        let thread = Thread { [self] in runJobs() }
        thread.name = "preset-writer"
        thread.start()
    }

    /// Waits until every job submitted so far has run (at shutdown, so that
    /// a pending save is on disk and answered before the process ends; and
    /// in tests). Never call it from a job.
    public func waitUntilIdle() {
        let done = DispatchSemaphore(value: 0)
        submit { done.signal() }
        done.wait()
    }

    private func runJobs() {
        // On Linux the scheduling policy and the nice value belong to the
        // thread (0: the calling one). SCHED_IDLE: the writer runs only on a
        // core that nothing else wants, so the OSC threads are never queued
        // behind it; nice +10 where that policy is refused.
        var parameters = sched_param(sched_priority: 0)
        if sched_setscheduler(0, Self.idlePolicy, &parameters) != 0 {
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Self.niceness)
        }
        while let job = nextJob() { job() }
    }

    /// The oldest job, or nil when there is none (the thread then ends).
    private func nextJob() -> (@Sendable () -> Void)? {
        jobs.withLock { jobs in
            guard jobs.next < jobs.waiting.count else {
                jobs.waiting.removeAll(keepingCapacity: true)
                jobs.next = 0
                jobs.running = false
                return nil
            }
            defer {
                jobs.waiting[jobs.next] = nil
                jobs.next += 1
            }
            return jobs.waiting[jobs.next]
        }
    }
}
