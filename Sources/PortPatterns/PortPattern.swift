import SystemSupport

/// A POSIX extended regular expression that names JACK ports by their
/// full names (`client:port`): a source's input patch, `--connect-inputs`,
/// `--auto-sources`. It matches anywhere in the name unless anchored
/// (`^…$`), as `jack_get_ports` does, and means what glibc's `regcomp`
/// with `REG_EXTENDED` means in the C locale (bytes of UTF-8, case
/// sensitive), without back-references (docs/sources.md, the syntax).
///
/// The pattern comes from any OSC client, so its cost is bounded: it is
/// compiled at once to a DFA (`MatchTable`) under the caps of
/// `PatternLimits`, and matching is a table lookup per byte. The worst
/// pattern the caps let through compiles and matches 1,000 names of 100
/// bytes in about 4 ms in a debug build, and its tables take under 130 KiB
/// (`PatternLimits` has the figures; `BoundsTests` measures them).
///
/// A pattern is refused (`Invalid.reason`) when it is over 256 bytes, holds
/// a control character, is not a regular expression, uses what is not
/// supported, or is too complex for the caps.
public final class PortPattern: Sendable {
    /// The longest pattern, in bytes.
    public static let longest = 256

    public struct Invalid: Error, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    public let text: String
    /// Made once and never changed, so a pattern may be matched from any thread.
    let table: MatchTable

    public init(_ text: String) throws(Invalid) {
        guard text.utf8.count <= Self.longest else {
            throw Invalid(reason: "pattern longer than \(Self.longest) bytes (\(text.utf8.count))")
        }
        guard !text.containsControlCharacters else { throw Invalid(reason: "pattern with a control character") }
        self.text = text
        var parser = PatternParser(text)
        var construction = SubsetConstruction(try ThompsonNFA(try parser.parse()))
        table = try construction.table()
    }

    /// Whether `name` (a port's full name) matches.
    public func matches(_ name: String) -> Bool {
        table.matches(name)
    }

    /// The bytes the compiled tables take.
    var footprint: Int { table.footprint }

    /// Why `text` is not a pattern, or nil when it is one (or empty: no patch).
    public static func problem(_ text: String) -> String? {
        guard !text.isEmpty else { return nil }
        do { _ = try PortPattern(text) } catch { return error.reason }
        return nil
    }
}
