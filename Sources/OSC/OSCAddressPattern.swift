/// OSC 1.0 address pattern matching, one address part (between slashes) at
/// a time: `*` any run of characters, `?` any one, `[1-4]`/`[!a]` a set,
/// `{1,3}` alternatives.
public enum OSCAddressPattern {
    /// Whether `part` uses any pattern syntax.
    public static func isPattern<S: StringProtocol>(_ part: S) -> Bool {
        part.utf8.contains { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?")
            || $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "{") }
    }

    /// Whether the pattern `pattern` matches the name `name`. A malformed
    /// pattern (an unclosed `[` or `{`) matches nothing.
    public static func matches<P: StringProtocol, N: StringProtocol>(_ pattern: P, _ name: N) -> Bool {
        match(Array(pattern.utf8)[...], Array(name.utf8)[...])
    }

    private static func match(_ p: ArraySlice<UInt8>, _ s: ArraySlice<UInt8>) -> Bool {
        var p = p, s = s
        while let c = p.first {
            switch c {
            case UInt8(ascii: "*"):
                p = p.drop { $0 == UInt8(ascii: "*") }
                if p.isEmpty { return true }
                var rest = s
                while true {
                    if match(p, rest) { return true }
                    if rest.isEmpty { return false }
                    rest = rest.dropFirst()
                }
            case UInt8(ascii: "?"):
                guard !s.isEmpty else { return false }
                p = p.dropFirst(); s = s.dropFirst()
            case UInt8(ascii: "["):
                guard let close = p.dropFirst().firstIndex(of: UInt8(ascii: "]")),
                      let ch = s.first else { return false }
                guard inSet(p[(p.startIndex + 1)..<close], ch) else { return false }
                p = p[(close + 1)...]; s = s.dropFirst()
            case UInt8(ascii: "{"):
                guard let close = p.firstIndex(of: UInt8(ascii: "}")) else { return false }
                let rest = p[(close + 1)...]
                for alternative in p[(p.startIndex + 1)..<close].split(separator: UInt8(ascii: ","),
                                                                      omittingEmptySubsequences: false) {
                    if s.starts(with: alternative), match(rest, s.dropFirst(alternative.count)) { return true }
                }
                return false
            default:
                guard s.first == c else { return false }
                p = p.dropFirst(); s = s.dropFirst()
            }
        }
        return s.isEmpty
    }

    /// `set` is what stands between `[` and `]`: characters and ranges `a-z`,
    /// negated by a leading `!`.
    private static func inSet(_ set: ArraySlice<UInt8>, _ ch: UInt8) -> Bool {
        var set = set
        var negated = false
        if set.first == UInt8(ascii: "!") { negated = true; set = set.dropFirst() }
        var found = false
        var i = set.startIndex
        while i < set.endIndex {
            let low = set[i]
            if i + 2 < set.endIndex, set[i + 1] == UInt8(ascii: "-") {
                if low <= ch && ch <= set[i + 2] { found = true }
                i += 3
            } else {
                if low == ch { found = true }
                i += 1
            }
        }
        return found != negated
    }
}
