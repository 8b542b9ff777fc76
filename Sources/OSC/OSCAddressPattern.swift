/// OSC 1.0 address pattern matching, one address part (between slashes) at
/// a time: `*` any run of characters, `?` any one, `[1-4]`/`[!a]` a set,
/// `{1,3}` alternatives.
public enum OSCAddressPattern {
    /// Whether `part` uses any pattern syntax. (Inlinable, so that callers
    /// get it specialised: the generic version costs more than the match.)
    @inlinable
    public static func isPattern<S: StringProtocol>(_ part: S) -> Bool {
        part.utf8.contains { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?")
            || $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "{") }
    }

    /// Whether the pattern `pattern` matches the name `name`. A malformed
    /// pattern (an unclosed `[` or `{`) matches nothing. Time is bounded by
    /// the pattern's length times the name's: every (pattern position, name
    /// position) pair is tried at most once, so `{,}{,}…` cannot explode.
    public static func matches<P: StringProtocol, N: StringProtocol>(_ pattern: P, _ name: N) -> Bool {
        guard pattern.utf8.count <= 1024 else { return false }
        var matcher = Matcher(pattern: Array(pattern.utf8), name: Array(name.utf8))
        return matcher.match(0, 0)
    }

    private struct Matcher {
        let pattern: [UInt8]
        let name: [UInt8]
        /// Pairs (pattern index, name index) already found not to match.
        var failed: Set<Int> = []

        init(pattern: [UInt8], name: [UInt8]) {
            self.pattern = pattern
            self.name = name
        }

        mutating func match(_ pi: Int, _ si: Int) -> Bool {
            let key = pi * (name.count + 1) + si
            if failed.contains(key) { return false }
            let result = step(pi, si)
            if !result { failed.insert(key) }
            return result
        }

        private mutating func step(_ pi: Int, _ si: Int) -> Bool {
            guard pi < pattern.count else { return si == name.count }
            switch pattern[pi] {
            case UInt8(ascii: "*"):
                var next = pi
                while next < pattern.count && pattern[next] == UInt8(ascii: "*") { next += 1 }
                if next == pattern.count { return true }
                for start in si...name.count where match(next, start) { return true }
                return false
            case UInt8(ascii: "?"):
                return si < name.count && match(pi + 1, si + 1)
            case UInt8(ascii: "["):
                guard let close = pattern[(pi + 1)...].firstIndex(of: UInt8(ascii: "]")), si < name.count else { return false }
                return OSCAddressPattern.inSet(pattern[(pi + 1)..<close], name[si]) && match(close + 1, si + 1)
            case UInt8(ascii: "{"):
                guard let close = pattern[pi...].firstIndex(of: UInt8(ascii: "}")) else { return false }
                for alternative in pattern[(pi + 1)..<close].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                    let end = si + alternative.count
                    if end <= name.count, name[si..<end].elementsEqual(alternative), match(close + 1, end) { return true }
                }
                return false
            case let c:
                return si < name.count && name[si] == c && match(pi + 1, si + 1)
            }
        }
    }

    /// `set` is what stands between `[` and `]`: characters and ranges `a-z`,
    /// negated by a leading `!`.
    fileprivate static func inSet(_ set: ArraySlice<UInt8>, _ ch: UInt8) -> Bool {
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
