import Glibc
import Logging
import Synchronization
import SystemSupport

/// A JACK server we started ourselves because none was running, so that a
/// new user sees the rig work on any machine, and a stage machine gets the
/// server it needs. It is stopped when we exit.
///
/// Started with real-time scheduling (`jackd -R`) where this process may
/// use it (root, or an `RLIMIT_RTPRIO` above 0), else with `-r` and a log
/// line saying why. jackd's own output goes into the rig's log, each line
/// prefixed `jackd:`, and the last of it is kept for the error that ends a
/// start that failed (a card missing or busy is named there).
///
/// Started with `posix_spawn` rather than Foundation's `Process`, which lives
/// in full Foundation (see docs/performance.md, Memory).
final class JackServerProcess: @unchecked Sendable {
    struct SpawnError: Error, CustomStringConvertible {
        let description: String
    }

    private let pid: pid_t
    /// Guards the reaping of the child: `waitpid` may succeed only once.
    private let exited = Mutex<Int32?>(nil)
    /// jackd's last lines, for the error of a start that failed.
    private let lastLines = LastLines()

    private final class LastLines: Sendable {
        let lines = Mutex<[String]>([])
    }
    let settings: JackHost.Autostart
    let realtime: Bool
    /// The command line, for log lines and errors.
    let commandLine: String

    init(serverName: String?, settings: JackHost.Autostart, logger: Logger) throws {
        self.settings = settings
        let (realtime, why) = Self.mayUseRealtime()
        self.realtime = realtime
        let arguments = Self.arguments(serverName: serverName, settings: settings, realtime: realtime)
        commandLine = (["jackd"] + arguments).joined(separator: " ")
        let (pid, output) = try Self.spawn("/usr/bin/jackd", arguments)
        self.pid = pid
        logger.notice("no JACK server was running: started one (\(commandLine), pid \(pid))")
        if !realtime {
            logger.warning("the JACK server runs without real-time scheduling (-r): \(why); audio may drop out under load")
        }
        let lines = lastLines
        let reader = Thread {
            Self.read(output) { line in
                logger.info("jackd: \(line)")
                // Asked for real-time and refused it anyway (a container
                // without the capability, say): it runs on, without.
                if realtime && line.contains("Cannot use real-time scheduling") {
                    logger.warning("the JACK server it started could not use real-time scheduling (\(line)); audio may drop out under load")
                }
                lines.lines.withLock { kept in
                    kept.append(line)
                    if kept.count > 8 { kept.removeFirst(kept.count - 8) }
                }
            }
        }
        reader.name = "jackd-output"
        reader.start()
    }

    /// jackd's command line: the server's options, then the backend's.
    static func arguments(serverName: String?, settings: JackHost.Autostart, realtime: Bool) -> [String] {
        var arguments: [String] = []
        if let serverName { arguments += ["-n", serverName] }
        arguments += [realtime ? "-R" : "-r", "-d", settings.driver]
        switch settings.driver {
        case "alsa":
            arguments += ["-d", settings.device ?? "hw:0", "-r", "\(settings.rate)", "-p", "\(settings.period)"]
        case "dummy", "net", "netone":
            arguments += ["-r", "\(settings.rate)", "-p", "\(settings.period)"]
        default:
            if let device = settings.device { arguments += ["-d", device] }
            arguments += ["-r", "\(settings.rate)", "-p", "\(settings.period)"]
        }
        return arguments
    }

    /// Whether a server started by this process may use SCHED_FIFO, and if
    /// not, why: as root, or with an `RLIMIT_RTPRIO` above 0 (the audio
    /// group's limits), jackd's threads get it.
    static func mayUseRealtime() -> (Bool, String) {
        if geteuid() == 0 { return (true, "") }
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(14), &limit) == 0 && limit.rlim_cur > 0 { return (true, "") } // RLIMIT_RTPRIO
        return (false, "this user may not use real-time scheduling (not root, and RLIMIT_RTPRIO is 0: add it to the "
                    + "'audio' group with an rtprio limit, /etc/security/limits.d)")
    }

    /// Why the server is not there: it exited, with its last words.
    var failure: String? {
        guard !isRunning else { return nil }
        let status = exited.withLock { $0 } ?? 0
        let code = (status & 0x7f) == 0 ? "exited with status \((status >> 8) & 0xff)" : "was killed by signal \(status & 0x7f)"
        let words = lastLines.lines.withLock { $0 }.suffix(4).joined(separator: " / ")
        return "the JACK server it started (\(commandLine)) \(code)" + (words.isEmpty ? "" : ": \(words)")
    }

    /// `path arguments…` with standard input on /dev/null and standard
    /// output and error into a pipe (returned), in the caller's environment,
    /// with every signal at its default action and none blocked (serve
    /// ignores SIGINT and SIGTERM to handle them itself; jackd must not
    /// inherit that), as Foundation's `Process` did.
    private static func spawn(_ path: String, _ arguments: [String]) throws -> (pid_t, Int32) {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw SpawnError(description: "cannot make a pipe for jackd's output") }
        // Our end stays ours: no other child (a later jackd) inherits it.
        _ = fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
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
        close(pipeEnds[1])
        guard status == 0 else {
            close(pipeEnds[0])
            throw SpawnError(description: "cannot start \(path): \(String(cString: strerror(status)))")
        }
        return (pid, pipeEnds[0])
    }

    /// Reads lines from `fd` until it closes (jackd ended), each given to
    /// `line` with control characters escaped and cut to 512 characters.
    private static func read(_ fd: Int32, line: (String) -> Void) {
        defer { close(fd) }
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let text = String(decoding: pending[..<newline], as: UTF8.self).trimmingWhitespace()
                pending.removeSubrange(...newline)
                if !text.isEmpty { line(text.cut(to: 512)) }
            }
            if pending.count > 65_536 { pending.removeAll() }
        }
        let rest = String(decoding: pending, as: UTF8.self).trimmingWhitespace()
        if !rest.isEmpty { line(rest.cut(to: 512)) }
    }

    var isRunning: Bool {
        exited.withLock { exited in
            if exited == nil {
                var status: Int32 = 0
                if waitpid(pid, &status, WNOHANG) == pid { exited = status }
            }
            return exited == nil
        }
    }

    func stop() {
        exited.withLock { exited in
            guard exited == nil else { return }
            kill(pid, SIGTERM)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            exited = status
        }
    }
}
