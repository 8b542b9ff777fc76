#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The process-wide list of live ``ChildProcess``es, and the last-resort
/// cleanup that stops them when the test process ends in any way.
///
/// Three layers, from gentlest to bluntest:
/// 1. an `atexit` handler: on a normal exit (including one after failed
///    tests) every live child gets ``ChildProcess/terminate(grace:)``,
///    i.e. SIGTERM, a grace period, then SIGKILL, and is reaped;
/// 2. fatal-signal handlers (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT,
///    SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE): every live child gets
///    SIGTERM, up to one second to exit (so jackd can remove its shared
///    memory), then SIGKILL; then the previous handler (for example Swift's
///    backtracer) is restored and the signal is delivered to it as before;
/// 3. the parent-death signal: every child is started through
///    `setpriv --pdeathsig KILL`, so the kernel kills it even when the test
///    process is killed with SIGKILL (see ``ChildProcessLauncher``).
///
/// Only PIDs this registry recorded when it spawned them are ever signalled,
/// and never after they were reaped; nothing is killed by name or by group.
final class ChildProcessRegistry: @unchecked Sendable {
    /// The one registry of the test process.
    static let shared = ChildProcessRegistry()

    /// How many children may be alive at once (signal-safe table size).
    static let capacity = 256

    /// Live children, for the `atexit` handler (it terminates them gently).
    private let live = Mutex<[ObjectIdentifier: WeakChild]>([:])

    /// PIDs of live children in a fixed table that a signal handler can read:
    /// no allocation, no lock, only atomic loads. A zero slot is free.
    private let pidSlots: UnsafeMutablePointer<Atomic<Int32>>

    private let handlersInstalled = Atomic<Bool>(false)

    private init() {
        pidSlots = .allocate(capacity: Self.capacity)
        for index in 0..<Self.capacity {
            (pidSlots + index).initialize(to: Atomic<Int32>(0))
        }
    }

    /// Records a freshly spawned child. Installs the exit and signal handlers
    /// the first time it is called.
    func register(_ child: ChildProcess, pid: Int32) {
        installHandlersOnce()
        live.withLock { $0[ObjectIdentifier(child)] = WeakChild(child) }
        for index in 0..<Self.capacity {
            if pidSlots[index].compareExchange(expected: 0, desired: pid, ordering: .sequentiallyConsistent).exchanged {
                return
            }
        }
        // Table full: the child is still covered by atexit and pdeathsig.
    }

    /// Forgets a child once it has been reaped (its PID may be reused now).
    func unregister(_ child: ChildProcess, pid: Int32) {
        for index in 0..<Self.capacity {
            if pidSlots[index].compareExchange(expected: pid, desired: 0, ordering: .sequentiallyConsistent).exchanged {
                break
            }
        }
        _ = live.withLock { $0.removeValue(forKey: ObjectIdentifier(child)) }
    }

    /// The children still alive, strongly referenced for the caller.
    var liveChildren: [ChildProcess] {
        live.withLock { $0.values.compactMap(\.child) }
    }

    /// Called by the `atexit` handler: terminates every live child gently.
    fileprivate func terminateAllAtExit() {
        let children = liveChildren
        // SIGTERM everyone first so they shut down in parallel, then wait.
        for child in children { child.signalIfRunning(SIGTERM) }
        for child in children { child.terminate(grace: .seconds(2)) }
    }

    /// Called from a signal handler, so async-signal-safe only (`kill`,
    /// `waitpid`, `nanosleep`, atomics): SIGTERM to every recorded PID, up to
    /// a second for them to exit, then SIGKILL to the rest. The process is
    /// dying, so reaping here behind the ChildProcess objects is harmless.
    fileprivate func stopAllFromSignalHandler() {
        var pending = 0
        for index in 0..<Self.capacity {
            let pid = pidSlots[index].load(ordering: .relaxed)
            if pid > 0 {
                kill(pid, SIGTERM)
                pending += 1
            }
        }
        var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
        var rounds = 0
        while pending > 0 && rounds < 100 {
            nanosleep(&pause, nil)
            rounds += 1
            pending = 0
            for index in 0..<Self.capacity {
                let pid = pidSlots[index].load(ordering: .relaxed)
                guard pid > 0 else { continue }
                var status: Int32 = 0
                let result = waitpid(pid, &status, WNOHANG)
                if result == pid || result == -1 {
                    // Gone (or not our child any more): forget it.
                    _ = pidSlots[index].compareExchange(expected: pid, desired: 0, ordering: .relaxed)
                } else {
                    pending += 1
                }
            }
        }
        for index in 0..<Self.capacity {
            let pid = pidSlots[index].load(ordering: .relaxed)
            if pid > 0 { kill(pid, SIGKILL) }
        }
    }

    private func installHandlersOnce() {
        guard handlersInstalled.compareExchange(expected: false, desired: true,
                                                ordering: .sequentiallyConsistent).exchanged else { return }
        atexit(childProcessRegistryAtExit)
        ChildProcessSignalHandlers.install()
    }
}

/// A weak reference, so the registry never keeps a child object alive: a
/// child dropped by its test is terminated by its own `deinit`.
private struct WeakChild {
    weak var child: ChildProcess?
    init(_ child: ChildProcess) { self.child = child }
}

private func childProcessRegistryAtExit() {
    ChildProcessRegistry.shared.terminateAllAtExit()
}

/// The fatal-signal side of ``ChildProcessRegistry``. Everything reachable
/// from the handler is allocated before the handler is installed.
private enum ChildProcessSignalHandlers {
    /// Signals raised by a faulting instruction: returning from the handler
    /// re-executes the instruction, which then reaches the restored handler
    /// with its original fault information.
    static let synchronousSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE]
    /// Signals sent to the process (or, for SIGTRAP, reported after the
    /// instruction): re-raised after the previous handler is restored.
    static let asynchronousSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT, SIGTRAP]

    /// The bit pattern of `SIG_IGN`, which Swift does not import.
    private static let ignoredHandlerBits = 1

    static func install() {
        let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: Int(NSIG))
        previous.initialize(repeating: sigaction(), count: Int(NSIG))
        previousActions = previous
        for signal in synchronousSignals + asynchronousSignals {
            // A signal the process ignores (SIGHUP under nohup, say) stays
            // ignored: catching it would kill the children of a live process.
            var current = sigaction()
            guard sigaction(signal, nil, &current) == 0 else { continue }
            let currentBits = unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
            if currentBits == ignoredHandlerBits { continue }

            var action = sigaction()
            action.__sigaction_handler.sa_handler = childProcessFatalSignalHandler
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            _ = sigaction(signal, &action, previous + Int(signal))
        }
    }
}

/// The previous handlers, indexed by signal number; set once before any
/// handler is installed and never freed.
nonisolated(unsafe) private var previousActions: UnsafeMutablePointer<sigaction>?

private func childProcessFatalSignalHandler(_ signal: Int32) {
    ChildProcessRegistry.shared.stopAllFromSignalHandler()
    guard let previousActions else { return }
    _ = sigaction(signal, previousActions + Int(signal), nil)
    switch signal {
    case SIGSEGV, SIGBUS, SIGILL, SIGFPE:
        return  // the faulting instruction runs again and meets the old handler
    default:
        raise(signal)
    }
}
