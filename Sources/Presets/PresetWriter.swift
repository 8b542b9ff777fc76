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
/// Someone waiting for the writes (`waitUntilIdle`: the rig on its way out)
/// raises it to SCHED_OTHER at nice +10 from then on: with both cores busy
/// a SCHED_IDLE writer took a second a save, and 100 queued saves held the
/// rig's exit for more than 20 s.
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
    /// The writer thread's id while it runs (0: none), so that a waiter can raise it.
    private let thread = Atomic<Int32>(0)
    /// Set by a waiter: the writer runs at nice +10, not SCHED_IDLE, until it ends.
    private let urgent = Atomic<Bool>(false)

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
        urgent.store(true, ordering: .sequentiallyConsistent)
        submit { done.signal() }
        // A thread that started before `urgent` was set has its policy already.
        let running = thread.load(ordering: .sequentiallyConsistent)
        if running != 0 { Self.lower(running) }
        done.wait()
    }

    /// Thread `id` (0: the calling one) to SCHED_OTHER at nice +10.
    private static func lower(_ id: Int32) {
        var parameters = sched_param(sched_priority: 0)
        _ = sched_setscheduler(id, SCHED_OTHER, &parameters)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(bitPattern: id), niceness)
    }

    private func runJobs() {
        // On Linux the scheduling policy and the nice value belong to the
        // thread (0: the calling one). SCHED_IDLE: the writer runs only on a
        // core that nothing else wants, so the OSC threads are never queued
        // behind it; nice +10 where that policy is refused, or once a waiter
        // came (`urgent`: read after the id is published, so a waiter that
        // found no id yet is seen here, and one that came later lowers it).
        thread.store(Thread.currentKernelID, ordering: .sequentiallyConsistent)
        defer { thread.store(0, ordering: .sequentiallyConsistent) }
        var parameters = sched_param(sched_priority: 0)
        if sched_setscheduler(0, Self.idlePolicy, &parameters) != 0 || urgent.load(ordering: .sequentiallyConsistent) {
            Self.lower(0)
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
