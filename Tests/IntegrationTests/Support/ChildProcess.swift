#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// A process started by a test: `jackd`, `crosspoint`, `oscdump`…
///
/// - Its stdout and stderr are captured in memory and readable at any time
///   (``standardOutput``, ``standardError``, ``waitForOutput(containing:in:after:timeout:)``).
/// - Its stdin is `/dev/null`; it inherits no other descriptor of the test
///   process and starts with default signal dispositions.
/// - ``terminate(grace:)`` sends SIGTERM, waits, then SIGKILL. It only ever
///   signals this child's own PID, and only while the child is not yet reaped
///   (this object does the reaping), so a recycled PID can never be hit.
/// - `deinit` terminates the child, so a test that throws or fails still
///   cleans up when the object goes out of scope. ``ChildProcessRegistry``
///   covers the test process exiting or crashing, and the kernel's
///   parent-death signal covers it being SIGKILLed.
///
/// Spawned with `posix_spawn` rather than Foundation's `Process`: Foundation
/// reaps its children on a background thread, which leaves a window where a
/// SIGKILL could reach a recycled PID, and it cannot request a parent-death
/// signal.
public final class ChildProcess: @unchecked Sendable {
    /// One of the two captured output streams.
    public enum Stream: Sendable, Hashable, CaseIterable {
        case standardOutput
        case standardError
    }

    /// How the child ended.
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        /// It called `exit` with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)
        /// Something else reaped it; the status is unknown.
        case unknown

        public var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signalled(let signal): "killed by signal \(signal)"
            case .unknown: "ended (status unknown)"
            }
        }
    }

    /// A position in both output streams, to wait for output that appears
    /// after some action (see ``outputMark()``).
    public struct OutputMark: Sendable, Equatable {
        public var standardOutput: Int
        public var standardError: Int
        public static let start = OutputMark(standardOutput: 0, standardError: 0)
    }

    public enum Failure: Error, CustomStringConvertible {
        case executableNotFound(String)
        case spawnFailed(executable: String, errno: Int32)
        case exitedWhileWaiting(for: String, process: String, termination: Termination, output: String)
        case timedOut(waitingFor: String, process: String, output: String)

        public var description: String {
            switch self {
            case .executableNotFound(let name):
                return "executable not found: \(name)"
            case .spawnFailed(let executable, let code):
                return "could not start \(executable): \(String(cString: strerror(code)))"
            case .exitedWhileWaiting(let what, let process, let termination, let output):
                return "\(process) \(termination) while waiting for \(what)\n\(output)"
            case .timedOut(let what, let process, let output):
                return "timed out waiting for \(what) from \(process)\n\(output)"
            }
        }
    }

    /// A short name for messages, e.g. "jackd".
    public let label: String
    /// The resolved path of the executable.
    public let executablePath: String
    public let arguments: [String]
    /// The child's PID. Signal it only through this object.
    public let pid: Int32

    private enum State { case running, ended(Termination) }
    private let state = Mutex(State.running)
    private let output = CapturedOutput()

    /// Starts `executable` (a path, or a name looked up in `PATH`).
    ///
    /// - Parameters:
    ///   - environment: variables set or overridden on top of the test
    ///     process's environment (or on an empty one if `inheritEnvironment`
    ///     is false).
    ///   - label: a name for diagnostics; defaults to the executable's name.
    public init(
        executable: String,
        arguments: [String] = [],
        environment: [String: String] = [:],
        inheritEnvironment: Bool = true,
        label: String? = nil
    ) throws {
        var fullEnvironment = inheritEnvironment ? ProcessInfo.processInfo.environment : [:]
        fullEnvironment.merge(environment) { _, new in new }
        guard let path = Self.resolve(executable, searchPath: fullEnvironment["PATH"]) else {
            throw Failure.executableNotFound(executable)
        }
        self.executablePath = path
        self.arguments = arguments
        self.label = label ?? (path as NSString).lastPathComponent

        let wrapper = ChildProcessLauncher.shared.setprivPath.map { [$0, "--pdeathsig", "KILL", "--"] } ?? []
        let argv = wrapper + [path] + arguments
        let envp = fullEnvironment.map { "\($0.key)=\($0.value)" }

        let spawned = ChildProcessLauncher.shared.run { Self.spawn(argv: argv, envp: envp) }
        switch spawned {
        case .failure(let code):
            throw Failure.spawnFailed(executable: path, errno: code)
        case .success(let pid, let stdoutFD, let stderrFD):
            self.pid = pid
            ChildProcessRegistry.shared.register(self, pid: pid)
            Self.startReader(stdoutFD: stdoutFD, stderrFD: stderrFD, into: output, name: self.label)
        }
    }

    deinit {
        terminate()
    }

    // MARK: State

    /// True until the child has ended (checks without blocking).
    public var isRunning: Bool { reapIfEnded() == nil }

    /// How the child ended, or nil while it runs.
    public var termination: Termination? { reapIfEnded() }

    // MARK: Output

    /// Everything the child wrote to stdout so far.
    public var standardOutput: String { output.text(.standardOutput) }
    /// Everything the child wrote to stderr so far.
    public var standardError: String { output.text(.standardError) }

    /// The current end of both streams: pass it to
    /// ``waitForOutput(containing:in:after:timeout:)`` to ignore older output.
    public func outputMark() -> OutputMark {
        OutputMark(standardOutput: output.byteCount(.standardOutput),
                   standardError: output.byteCount(.standardError))
    }

    /// Waits until `text` appears in the chosen streams (after `mark`) and
    /// returns the whole line that contains it.
    ///
    /// Throws if the child ends without printing it, or after `timeout`.
    @discardableResult
    public func waitForOutput(
        containing text: String,
        in streams: Set<Stream> = [.standardOutput, .standardError],
        after mark: OutputMark = .start,
        timeout: Duration = .seconds(10)
    ) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            // Read "ended" before the output: output seen after the child
            // ended and its pipes closed is complete.
            let ended = termination
            let complete = ended != nil && output.isFinished
            if let line = findLine(containing: text, in: streams, after: mark) {
                return line
            }
            if let ended, complete {
                throw Failure.exitedWhileWaiting(for: "\"\(text)\"", process: describe(), termination: ended,
                                                 output: diagnostics())
            }
            if ContinuousClock.now >= deadline {
                throw Failure.timedOut(waitingFor: "\"\(text)\"", process: describe(), output: diagnostics())
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits for the child to end by itself. Returns once everything it
    /// wrote has been read, so `standardOutput` and `standardError` are complete.
    @discardableResult
    public func waitForExit(timeout: Duration = .seconds(10)) async throws -> Termination {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let ended = termination, output.isFinished || ContinuousClock.now >= deadline { return ended }
            if ContinuousClock.now >= deadline {
                throw Failure.timedOut(waitingFor: "exit", process: describe(), output: diagnostics())
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The last lines of both streams, for failure messages.
    public func diagnostics(lastLines: Int = 40) -> String {
        func tail(_ text: String) -> String {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.suffix(lastLines).joined(separator: "\n")
        }
        var report = "--- \(describe()) stdout (last \(lastLines) lines) ---\n\(tail(standardOutput))\n"
        report += "--- \(describe()) stderr (last \(lastLines) lines) ---\n\(tail(standardError))"
        // A crash's own words (the fatal error, the crashed thread and its
        // frames) come before a backtrace longer than the tail: shown too.
        let lines = standardError.split(separator: "\n", omittingEmptySubsequences: false)
        if let crash = lines.firstIndex(where: { $0.contains("Fatal error") || $0.contains("Program crashed") }),
           crash < lines.count - lastLines {
            let start = max(0, crash - 10)
            report += "\n--- \(describe()) stderr where it crashed (lines \(start + 1)-\(min(lines.count, crash + 60))) ---\n"
            report += lines[start..<min(lines.count, crash + 60)].joined(separator: "\n")
        }
        if output.isTruncated { report += "\n(output truncated at \(CapturedOutput.limit) bytes)" }
        return report
    }

    // MARK: Stopping

    /// Sends `signal` to the child if it has not ended yet. Returns whether
    /// it was sent.
    @discardableResult
    public func signalIfRunning(_ signal: Int32) -> Bool {
        state.withLock { state in
            guard case .running = state else { return false }
            // Still not reaped, so `pid` is certainly still ours (at worst a
            // zombie), even if the child has already exited.
            return kill(pid, signal) == 0
        }
    }

    /// Stops the child: SIGTERM, then SIGKILL if it is still running after
    /// `grace`. Blocks until the child is reaped (or, in the pathological case
    /// of an unkillable process, 10 s after SIGKILL). Safe to call repeatedly.
    ///
    /// - Returns: how the child ended, or nil if it could not be reaped.
    @discardableResult
    public func terminate(grace: Duration = .seconds(2)) -> Termination? {
        if let ended = reapIfEnded() { return ended }
        signalIfRunning(SIGTERM)
        if let ended = waitForReap(within: grace) { return ended }
        signalIfRunning(SIGKILL)
        return waitForReap(within: .seconds(10))
    }

    // MARK: Private

    private func describe() -> String { "\(label) (pid \(pid))" }

    private func findLine(containing text: String, in streams: Set<Stream>, after mark: OutputMark) -> String? {
        for stream in Stream.allCases where streams.contains(stream) {
            let offset = stream == .standardOutput ? mark.standardOutput : mark.standardError
            let captured = output.text(stream, from: offset)
            guard let range = captured.range(of: text) else { continue }
            let lineStart = captured[..<range.lowerBound].lastIndex(of: "\n").map(captured.index(after:))
                ?? captured.startIndex
            let lineEnd = captured[range.upperBound...].firstIndex(of: "\n") ?? captured.endIndex
            return String(captured[lineStart..<lineEnd])
        }
        return nil
    }

    private func waitForReap(within duration: Duration) -> Termination? {
        let deadline = ContinuousClock.now + duration
        while true {
            if let ended = reapIfEnded() { return ended }
            if ContinuousClock.now >= deadline { return nil }
            usleep(5_000)
        }
    }

    /// Reaps the child if it has ended (never blocks). Only here is the PID
    /// released, under the same lock that guards every `kill`.
    private func reapIfEnded() -> Termination? {
        let (ended, justReaped) = state.withLock { state -> (Termination?, Bool) in
            if case .ended(let termination) = state { return (termination, false) }
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                let termination = Self.decode(status: status)
                state = .ended(termination)
                return (termination, true)
            }
            if result == -1 && errno == ECHILD {
                state = .ended(.unknown)
                return (.unknown, true)
            }
            return (nil, false)
        }
        if justReaped { ChildProcessRegistry.shared.unregister(self, pid: pid) }
        return ended
    }

    /// Decodes a `waitpid` status (the W* macros are not imported in Swift).
    private static func decode(status: Int32) -> Termination {
        let low = status & 0x7f
        if low == 0 { return .exited((status >> 8) & 0xff) }
        if low != 0x7f { return .signalled(low) }
        return .unknown
    }
}
