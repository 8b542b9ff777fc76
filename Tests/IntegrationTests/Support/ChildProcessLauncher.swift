#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// Spawns child processes from one dedicated thread that lives as long as the
/// test process.
///
/// Children are started through `setpriv --pdeathsig KILL`, which asks the
/// kernel to SIGKILL the child when its parent dies. Linux ties that signal to
/// the *thread* that spawned the child, not to the process: a child spawned
/// from a Swift concurrency worker would be killed as soon as the pool retires
/// that idle thread. Spawning from a thread that never exits makes the signal
/// mean what we want: "the test process is gone".
final class ChildProcessLauncher: @unchecked Sendable {
    static let shared = ChildProcessLauncher()

    /// The `setpriv` binary (util-linux, always present on Debian), or nil if
    /// it is missing, in which case children run without a parent-death signal.
    let setprivPath: String? = FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
        ? "/usr/bin/setpriv" : nil

    private let queue = Mutex<[@Sendable () -> Void]>([])
    private let workAvailable = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { [unowned self] in self.serve() }
        thread.name = "ChildProcessLauncher"
        thread.start()
    }

    /// Runs `body` on the launcher thread and returns its result.
    func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> Result {
        let job = Job<Result>()
        queue.withLock {
            $0.append {
                let result = body()
                job.result.withLock { $0 = result }
                job.done.signal()
            }
        }
        workAvailable.signal()
        job.done.wait()
        guard let result = job.result.withLock({ $0.take() }) else {
            fatalError("ChildProcessLauncher: job finished without a result")
        }
        return result
    }

    /// One request's result and its completion signal.
    private final class Job<Result: Sendable>: Sendable {
        let result = Mutex<Result?>(nil)
        let done = DispatchSemaphore(value: 0)
    }

    private func serve() -> Never {
        while true {
            workAvailable.wait()
            let jobs = queue.withLock { jobs -> [@Sendable () -> Void] in
                defer { jobs.removeAll() }
                return jobs
            }
            for job in jobs { job() }
        }
    }
}
