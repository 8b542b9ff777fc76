import Synchronization

/// The standard output and standard error of a ``ChildProcess``, as they
/// arrive. Written by the child's reader thread, readable at any time.
final class CapturedOutput: Sendable {
    /// At most this many bytes are kept per stream; later bytes are dropped
    /// and ``isTruncated`` says so.
    static let limit = 32 << 20

    private struct Streams {
        var standardOutput: [UInt8] = []
        var standardError: [UInt8] = []
        var truncated = false
        var finished = false
    }

    private let streams = Mutex(Streams())

    /// Appends bytes read from the child's stdout or stderr.
    func append(_ bytes: UnsafeRawBufferPointer, toStandardError: Bool) {
        streams.withLock { streams in
            let current = toStandardError ? streams.standardError.count : streams.standardOutput.count
            let room = max(0, Self.limit - current)
            if bytes.count > room { streams.truncated = true }
            let kept = UnsafeRawBufferPointer(rebasing: bytes.prefix(room))
            if toStandardError {
                streams.standardError.append(contentsOf: kept)
            } else {
                streams.standardOutput.append(contentsOf: kept)
            }
        }
    }

    /// Marks both streams as closed by the child (end of file reached).
    func finish() { streams.withLock { $0.finished = true } }

    /// True once both pipes reached end of file: nothing more will arrive.
    var isFinished: Bool { streams.withLock { $0.finished } }

    /// True if some output was dropped because a stream exceeded ``limit``.
    var isTruncated: Bool { streams.withLock { $0.truncated } }

    /// The bytes of one stream from `offset` on, decoded as UTF-8 (invalid
    /// sequences are replaced).
    func text(_ stream: ChildProcess.Stream, from offset: Int = 0) -> String {
        streams.withLock { streams in
            switch stream {
            case .standardOutput:
                return Self.decode(streams.standardOutput, from: offset)
            case .standardError:
                return Self.decode(streams.standardError, from: offset)
            }
        }
    }

    /// The number of bytes captured so far on one stream.
    func byteCount(_ stream: ChildProcess.Stream) -> Int {
        streams.withLock { stream == .standardOutput ? $0.standardOutput.count : $0.standardError.count }
    }

    private static func decode(_ bytes: [UInt8], from offset: Int) -> String {
        let start = min(max(0, offset), bytes.count)
        return String(decoding: bytes[start...], as: UTF8.self)
    }
}
