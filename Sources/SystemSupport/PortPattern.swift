#if canImport(Glibc)
import Glibc
#endif

/// A POSIX extended regular expression (`regcomp` with `REG_EXTENDED`)
/// that names JACK ports by their full names (`client:port`): a source's
/// input patch. It matches anywhere in the name unless anchored (`^…$`),
/// as `jack_get_ports` and `--connect-inputs` do.
///
/// A pattern is refused (`Invalid.reason`) when it is over 256 bytes, holds
/// a control character, or does not compile.
public final class PortPattern: @unchecked Sendable {
    /// The longest pattern, in bytes.
    public static let longest = 256

    public struct Invalid: Error, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    public let text: String
    /// Compiled once; `regexec` only reads it, so a pattern may be matched
    /// from any thread.
    private var compiled = regex_t()

    public init(_ text: String) throws(Invalid) {
        guard text.utf8.count <= Self.longest else {
            throw Invalid(reason: "pattern longer than \(Self.longest) bytes (\(text.utf8.count))")
        }
        guard !text.containsControlCharacters else { throw Invalid(reason: "pattern with a control character") }
        self.text = text
        let status = regcomp(&compiled, text, REG_EXTENDED | REG_NOSUB)
        guard status == 0 else {
            var message = [CChar](repeating: 0, count: 128)
            regerror(status, &compiled, &message, message.count)
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw Invalid(reason: "not a regular expression: \(reason)")
        }
    }

    deinit { regfree(&compiled) }

    /// Whether `name` (a port's full name) matches.
    public func matches(_ name: String) -> Bool {
        regexec(&compiled, name, 0, nil, 0) == 0
    }

    /// Why `text` is not a pattern, or nil when it is one (or empty: no patch).
    public static func problem(_ text: String) -> String? {
        guard !text.isEmpty else { return nil }
        do { _ = try PortPattern(text) } catch { return error.reason }
        return nil
    }
}
