import Glibc
import Logging
import Synchronization

/// A JACK server we started ourselves because none was running, so that a
/// new user sees the rig work on any machine. It is stopped when we exit.
///
/// Started with `posix_spawn` rather than Foundation's `Process`, which lives
/// in full Foundation (see docs/performance.md, Memory).
final class JackServerProcess: @unchecked Sendable {
    struct SpawnError: Error, CustomStringConvertible {
        let description: String
    }

    private let pid: pid_t
    /// Guards the reaping of the child: `waitpid` may succeed only once.
    private let exited = Mutex<Bool>(false)
    let driver: String

    /// Starts `jackd` in non-realtime mode. With the dummy backend no sound
    /// card is needed: `jackd -r -d dummy -r 48000 -p 64`.
    init(serverName: String?, driver: String, logger: Logger) throws {
        self.driver = driver
        var arguments: [String] = []
        if let serverName { arguments += ["-n", serverName] }
        arguments += ["-r", "-d", driver]
        if driver == "dummy" { arguments += ["-r", "48000", "-p", "64"] }
        pid = try Self.spawn("/usr/bin/jackd", arguments)
        logger.notice("no JACK server was running: started one (jackd \(arguments.joined(separator: " ")), pid \(pid))")
    }

    /// `path arguments…` with standard input, output and error on /dev/null,
    /// in the caller's environment, with every signal at its default action
    /// and none blocked (serve ignores SIGINT and SIGTERM to handle them
    /// itself; jackd must not inherit that), as Foundation's `Process` did.
    private static func spawn(_ path: String, _ arguments: [String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in 0...2 {
            posix_spawn_file_actions_addopen(&actions, Int32(fd), "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard status == 0 else {
            throw SpawnError(description: "cannot start \(path): \(String(cString: strerror(status)))")
        }
        return pid
    }

    var isRunning: Bool {
        exited.withLock { exited in
            if !exited {
                var status: Int32 = 0
                exited = waitpid(pid, &status, WNOHANG) == pid
            }
            return !exited
        }
    }

    func stop() {
        exited.withLock { exited in
            guard !exited else { return }
            kill(pid, SIGTERM)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            exited = true
        }
    }
}
