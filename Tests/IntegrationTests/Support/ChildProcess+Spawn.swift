#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// Starting the process: the executable found on the search path, spawned
/// with its own pipes (every other descriptor closed in the child), and the
/// threads that read its output.
extension ChildProcess {
    static func resolve(_ executable: String, searchPath: String?) -> String? {
        let fileManager = FileManager.default
        if executable.contains("/") {
            return fileManager.isExecutableFile(atPath: executable) ? executable : nil
        }
        let directories = (searchPath ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        for directory in directories {
            let candidate = "\(directory)/\(executable)"
            if fileManager.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    enum SpawnResult: Sendable {
        case success(pid: Int32, stdoutFD: Int32, stderrFD: Int32)
        case failure(errno: Int32)
    }

    /// Runs on the launcher thread.
    static func spawn(argv: [String], envp: [String]) -> SpawnResult {
        // Close-on-exec, so no other child inherits them. (pipe2 is not
        // imported; all spawns happen on this one thread, so no spawn can
        // slip in between pipe and fcntl.)
        var stdoutPipe: [Int32] = [-1, -1]
        var stderrPipe: [Int32] = [-1, -1]
        guard pipe(&stdoutPipe) == 0 else { return .failure(errno: errno) }
        guard pipe(&stderrPipe) == 0 else {
            let code = errno
            close(stdoutPipe[0]); close(stdoutPipe[1])
            return .failure(errno: code)
        }
        for descriptor in stdoutPipe + stderrPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
        // Nothing else of the test process (libjack's sockets, other pipes)
        // leaks into the child.
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        // Undo any handler or SIG_IGN the test process has (SIGPIPE, say).
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in 1..<32 where signal != SIGKILL && signal != SIGSTOP {
            sigaddset(&defaults, Int32(signal))
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let cArgv: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        let cEnvp: [UnsafeMutablePointer<CChar>?] = envp.map { strdup($0) } + [nil]
        defer {
            cArgv.forEach { free($0) }
            cEnvp.forEach { free($0) }
        }

        var pid: pid_t = 0
        let result = posix_spawn(&pid, argv[0], &actions, &attributes, cArgv, cEnvp)
        close(stdoutPipe[1])
        close(stderrPipe[1])
        guard result == 0 else {
            close(stdoutPipe[0])
            close(stderrPipe[0])
            return .failure(errno: result)
        }
        return .success(pid: pid, stdoutFD: stdoutPipe[0], stderrFD: stderrPipe[0])
    }

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+), looked up at
    /// run time because Swift's Glibc module does not define `_GNU_SOURCE`.
    static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Drains both pipes on a thread of their own until the child (and
    /// anything it passed the pipes to) closes them.
    static func startReader(stdoutFD: Int32, stderrFD: Int32, into output: CapturedOutput, name: String) {
        let thread = Thread {
            var descriptors = [
                pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0),
            ]
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
            defer { buffer.deallocate() }
            var open = 2
            while open > 0 {
                let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    break
                }
                for index in descriptors.indices where descriptors[index].fd >= 0 && descriptors[index].revents != 0 {
                    let count = read(descriptors[index].fd, buffer.baseAddress, buffer.count)
                    if count > 0 {
                        output.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]), toStandardError: index == 1)
                    } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                        close(descriptors[index].fd)
                        descriptors[index].fd = -1  // poll ignores negative descriptors
                        open -= 1
                    }
                }
            }
            for descriptor in descriptors where descriptor.fd >= 0 { close(descriptor.fd) }
            output.finish()
        }
        thread.name = "ChildProcess output: \(name)"
        thread.start()
    }
}
