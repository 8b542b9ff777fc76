import Foundation

/// `tools/jack-tap`, a C JACK client run as a process of its own: it plays
/// signals into ports and records others with JACK's frame clock beside
/// every period. Where ``JackProbe`` cannot go (a JACK server other than
/// jackd2, such as PipeWire's, whose libjack the test process does not
/// load), the test starts the tap under that server's wrapper instead.
///
/// ```swift
/// let tap = try await JackTap.start(seconds: 2, play: [.sine(1000, 0.5)], record: 1,
///                                   connections: [("tap_play:out_1", "crosspoint:in_1")],
///                                   output: file) { try pipewire.run($0, arguments: $1) }
/// try await tap.waitUntilRecording()
/// …
/// let take = try await tap.finish()
/// ```
final class JackTap: @unchecked Sendable {
    /// A signal for one play port (`NAME_play:out_K`).
    enum Signal {
        /// `amplitude · sin(2π · frequency · t / rate)` for the frame time t
        /// of each sample: a recorder can compute what it should hear at any
        /// frame (``expected(frameTime:sampleRate:)``).
        case sine(Double, Double)
        /// A constant.
        case dc(Double)
        /// The frame time t as a staircase, `amplitude · (1 + t mod 2²⁰) / 2²⁰`:
        /// a recorder reads back which frame each sample was played in
        /// (``decodeFrameCode(_:amplitude:)``), unambiguously within 2²⁰
        /// frames (21.8 s at 48 kHz). Every step is exact in `Float`, so the
        /// code survives a path at unity gain bit for bit.
        case code(Double)

        /// The frames after which ``code(_:)`` repeats.
        static let codeModulus = 1 << 20

        var argument: String {
            switch self {
            case .sine(let frequency, let amplitude): "sine:\(frequency):\(amplitude)"
            case .dc(let value): "dc:\(value)"
            case .code(let amplitude): "code:\(amplitude)"
            }
        }

        /// The sample this signal plays at `frameTime`.
        func expected(frameTime: UInt32, sampleRate: Int) -> Double {
            switch self {
            case .sine(let frequency, let amplitude):
                amplitude * sin(2 * Double.pi * fmod(frequency * Double(frameTime), Double(sampleRate)) / Double(sampleRate))
            case .dc(let value): value
            case .code(let amplitude):
                amplitude * Double(1 + Int(frameTime) % Self.codeModulus) / Double(Self.codeModulus)
            }
        }
    }

    /// What the tap printed when it started.
    struct Startup: Sendable {
        var sampleRate: Int
        var periodSize: Int
        /// `jack_get_time()` (µs) and the Unix time (ns) read together.
        var jackMicroseconds: UInt64
        var unixNanoseconds: Int64
        /// "PORT capture=A..B playback=C..D" for every connected port.
        var latencyLines: [String]

        /// JACK's microsecond clock at a Unix time.
        func jackMicroseconds(atUnixTime time: Double) -> Double {
            Double(jackMicroseconds) + (time - Double(unixNanoseconds) / 1e9) * 1e6
        }
    }

    /// A finished take: the audio with its frame times, and JACK's time of
    /// every period's first frame.
    struct Take: Sendable {
        var recording: Recording
        /// `current_usecs` of `jack_get_cycle_times` for each period of
        /// `recording.periods`, in the same order.
        var periodMicroseconds: [UInt64]
        /// For each period of `recording.periods`: the record ports whose
        /// buffer changed while the tap read the period (bit c for `in_(c+1)`).
        /// Non-zero means the upstream client published a new cycle during
        /// the read, so the period's channels may come from two different
        /// cycles (see tools/jack-tap/jack_tap.c, `record_process`).
        var changedPorts: [UInt64]
        /// `jack_get_time()` when the recorder's process callback began, for
        /// each period: the clock itself, where ``periodMicroseconds`` are
        /// the backend's account (a netjack2 slave's was up to 2 s off around
        /// a dropped link, a loaded `dummy` server's up to 9 ms).
        var callbackMicroseconds: [UInt64]

        /// The frame time at JACK time `microseconds`, from the period that
        /// holds it (or the nearest one), at the nominal rate.
        func frameTime(atJackMicroseconds microseconds: Double) -> Double? {
            let periods = recording.periods
            guard !periods.isEmpty else { return nil }
            let index = periodMicroseconds.lastIndex { Double($0) <= microseconds } ?? 0
            let start = Double(periodMicroseconds[index])
            return Double(periods[index].frameTime) + (microseconds - start) * Double(recording.sampleRate) / 1e6
        }
    }

    enum Failure: Error, CustomStringConvertible {
        case compileFailed(String)
        case badOutput(String)

        var description: String {
            switch self {
            case .compileFailed(let output): "could not build tools/jack-tap: \(output)"
            case .badOutput(let what): "jack-tap: \(what)"
            }
        }
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A C compiler: the system's `cc`, else the clang that comes with Swift.
    static var compiler: String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let hasCC = path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/cc") }
        return hasCC ? "cc" : "clang"
    }

    /// Compiles tools/jack-tap/jack_tap.c into `directory` with `cc` (or the
    /// clang that comes with Swift) against jackd2's headers; the libjack it
    /// runs with is whichever the dynamic linker finds (PipeWire's under
    /// `pw-jack`). Returns the executable's path.
    static func build(in directory: URL) async throws -> String {
        let source = packageRoot.appendingPathComponent("tools/jack-tap/jack_tap.c").path
        let executable = directory.appendingPathComponent("jack-tap").path
        let cc = try ChildProcess(executable: compiler,
                                  arguments: ["-O2", "-Wall", "-o", executable, source, "-ljack", "-lm"],
                                  label: "cc jack_tap.c")
        guard try await cc.waitForExit(timeout: .seconds(60)) == .exited(0) else {
            throw Failure.compileFailed(cc.diagnostics())
        }
        return executable
    }

    let process: ChildProcess
    let output: URL
    let name: String
    let signals: [Signal]
    let seconds: Double

    /// Starts the tap: `launch(executable, arguments)` must start it as a
    /// ``ChildProcess`` (under `pw-jack`, say).
    static func start(executable: String, name: String = "tap", seconds: Double, play: [Signal], record: Int,
                      connections: [(String, String)], output: URL,
                      launch: (String, [String]) throws -> ChildProcess) throws -> JackTap {
        var arguments = ["--name", name, "--record", "\(record)"]
        for signal in play { arguments += ["--play", signal.argument] }
        for (source, destination) in connections { arguments += ["--connect", source, destination] }
        arguments += ["\(seconds)", output.path]
        return JackTap(process: try launch(executable, arguments), output: output, name: name, signals: play,
                       seconds: seconds)
    }

    private init(process: ChildProcess, output: URL, name: String, signals: [Signal], seconds: Double) {
        self.process = process
        self.output = output
        self.name = name
        self.signals = signals
        self.seconds = seconds
    }

    deinit {
        process.terminate()
    }

    /// Waits until the tap has recorded its first period, and returns what
    /// it said about the server and its clock.
    func waitUntilRecording(timeout: Duration = .seconds(20)) async throws -> Startup {
        try await process.waitForOutput(containing: "recording", in: [.standardOutput], timeout: timeout)
        let lines = process.standardOutput.split(separator: "\n").map(String.init)
        func values(_ prefix: String) throws -> [String: String] {
            guard let line = lines.first(where: { $0.hasPrefix(prefix + " ") }) else {
                throw Failure.badOutput("no \"\(prefix)\" line in:\n\(process.standardOutput)")
            }
            return Dictionary(line.split(separator: " ").dropFirst().compactMap { pair -> (String, String)? in
                let parts = pair.split(separator: "=", maxSplits: 1)
                return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
            }, uniquingKeysWith: { $1 })
        }
        let ready = try values("ready"), clock = try values("clock")
        guard let rate = ready["rate"].flatMap(Int.init), let period = ready["period"].flatMap(Int.init),
              let jack = clock["jack_usecs"].flatMap(UInt64.init), let unix = clock["unix_ns"].flatMap(Int64.init) else {
            throw Failure.badOutput("unreadable start lines:\n\(process.standardOutput)")
        }
        return Startup(sampleRate: rate, periodSize: period, jackMicroseconds: jack, unixNanoseconds: unix,
                       latencyLines: lines.filter { $0.hasPrefix("latency ") }.map { String($0.dropFirst(8)) })
    }

    /// Waits for the tap to finish and reads its take.
    func finish() async throws -> Take {
        let status = try await process.waitForExit(timeout: .seconds(Int64(seconds.rounded(.up)) + 20))
        guard status == .exited(0) else {
            throw Failure.badOutput("\(status)\n\(process.diagnostics())")
        }
        return try Self.read(output)
    }

    /// Reads a take file (format: tools/jack-tap/jack_tap.c).
    static func read(_ file: URL) throws -> Take {
        let data = try Data(contentsOf: file)
        guard let newline = data.firstIndex(of: UInt8(ascii: "\n")) else { throw Failure.badOutput("no header in \(file.path)") }
        let header = String(decoding: data[..<newline], as: UTF8.self)
        let fields = Dictionary(header.split(separator: " ").dropFirst().compactMap { pair -> (String, Int)? in
            let parts = pair.split(separator: "=")
            return parts.count == 2 ? Int(parts[1]).map { (String(parts[0]), $0) } : nil
        }, uniquingKeysWith: { $1 })
        guard header.hasPrefix("jack-tap "), let rate = fields["rate"], let channels = fields["channels"],
              let frames = fields["frames"], let count = fields["periods"], let overflowed = fields["overflowed"] else {
            throw Failure.badOutput("bad header \(header)")
        }
        let samplesStart = newline + 1
        let periodsStart = samplesStart + frames * channels * 4
        let recordSize = 6 * 8
        guard data.count == periodsStart + count * recordSize else {
            throw Failure.badOutput("\(file.path) has \(data.count) bytes, the header says \(periodsStart + count * recordSize)")
        }
        var audio = [[Float]](repeating: [], count: channels)
        var periods: [Recording.Period] = []
        var microseconds: [UInt64] = []
        var changedPorts: [UInt64] = []
        var callbacks: [UInt64] = []
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            for channel in 0..<channels {
                audio[channel] = (0..<frames).map { frame in
                    bytes.loadUnaligned(fromByteOffset: samplesStart + (frame * channels + channel) * 4, as: Float.self)
                }
            }
            for period in 0..<count {
                let base = periodsStart + period * recordSize
                let offset = bytes.loadUnaligned(fromByteOffset: base, as: UInt64.self)
                let frameTime = bytes.loadUnaligned(fromByteOffset: base + 8, as: UInt64.self)
                let start = bytes.loadUnaligned(fromByteOffset: base + 16, as: UInt64.self)
                let next = bytes.loadUnaligned(fromByteOffset: base + 40, as: UInt64.self)
                periods.append(.init(offset: Int(offset), frameTime: UInt32(truncatingIfNeeded: frameTime),
                                     cycle: next > start ? start..<next : 0..<0))
                microseconds.append(start)
                changedPorts.append(bytes.loadUnaligned(fromByteOffset: base + 24, as: UInt64.self))
                callbacks.append(bytes.loadUnaligned(fromByteOffset: base + 32, as: UInt64.self))
            }
        }
        let recording = Recording(channels: audio, sampleRate: rate, firstFrameTime: periods.first?.frameTime ?? 0,
                                  periods: periods, overflowed: overflowed != 0)
        return Take(recording: recording, periodMicroseconds: microseconds, changedPorts: changedPorts,
                    callbackMicroseconds: callbacks)
    }

    /// For a recording of a ``Signal/code(_:)`` signal: the frame time (mod
    /// ``Signal/codeModulus``) each sample was played at, or nil where the
    /// sample is no code of that amplitude (off by more than a quarter step).
    static func decodeFrameCode(_ samples: [Float], amplitude: Double) -> [Int?] {
        let modulus = Double(Signal.codeModulus)
        return samples.map { sample in
            let steps = Double(sample) / amplitude * modulus
            let code = steps.rounded()
            guard abs(steps - code) < 0.25, code >= 1, code <= modulus else { return nil }
            return Int(code) - 1
        }
    }
}
