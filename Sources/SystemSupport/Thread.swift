import Glibc
import Synchronization

/// A thread of our own, on POSIX threads: the part of Foundation's `Thread`
/// that Crosspoint uses (`Thread { … }`, `name`, `start()`, `isFinished`,
/// `Thread.sleep(forTimeInterval:)`), with the same names so call sites read
/// the same. It exists so that the rig does not load the whole of Foundation
/// (and with it ICU): about 8 MiB resident for a thread type
/// (docs/performance.md, Memory). Modules that import this one do not import
/// Foundation, or the name would be ambiguous.
///
/// Like Foundation's, the thread is detached: it ends when its block returns,
/// and nobody joins it; `isFinished` tells when it has.
public final class Thread: @unchecked Sendable {
    private let block: @Sendable () -> Void
    private let finished = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    /// Set before `start()`; given to the system thread (its first 15 bytes,
    /// the kernel's limit), where `top -H`, `ps -L` and debuggers show it.
    public var name: String?

    public init(block: @escaping @Sendable () -> Void) {
        self.block = block
    }

    /// Starts the thread. Calling it twice is a programming error.
    public func start() {
        precondition(!started.exchange(true, ordering: .relaxed), "Thread started twice")
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            let thread = Unmanaged<Thread>.fromOpaque(context!).takeRetainedValue()
            thread.run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Thread>.fromOpaque(context).release()
            fatalError("pthread_create failed: \(String(cString: strerror(status)))")
        }
        pthread_detach(thread)
    }

    /// True once the block has returned.
    public var isFinished: Bool { finished.load(ordering: .acquiring) }

    private func run() {
        if let name { Self.setCurrentName(name) }
        block()
        finished.store(true, ordering: .releasing)
    }

    /// Names the calling thread. `pthread_setname_np` is hidden from Swift
    /// (a GNU extension), so this writes what it would: the first 15 bytes to
    /// `/proc/thread-self/comm`.
    private static func setCurrentName(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// The calling thread's kernel id (what `gettid` returns; hidden from
    /// Swift like `pthread_setname_np`), read from `/proc/thread-self`
    /// ("PID/task/TID"); 0 when it cannot be read. Scheduling calls that
    /// take a pid (`sched_setscheduler`, `setpriority`) act on that thread.
    public static var currentKernelID: Int32 {
        var link = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &link, link.count - 1)
        guard count > 0 else { return 0 }
        let text = String(decoding: link[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.split(separator: "/").last.flatMap { Int32($0) } ?? 0
    }

    /// Blocks the calling thread for `seconds` (at least; nanosleep is
    /// resumed after a signal).
    public static func sleep(forTimeInterval seconds: Double) {
        guard seconds > 0 else { return }
        let whole = seconds.rounded(.down)
        var request = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR {
            request = remaining
        }
    }
}
