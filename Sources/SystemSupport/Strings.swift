import Glibc

/// `printf`-style formatting through C's `vsnprintf`, where Foundation's
/// `String(format:)` was used (that initialiser lives in full Foundation, not
/// in FoundationEssentials). Arguments must be C-representable: integers,
/// floating point, and C strings as pointers (`%s` with a `StaticString`'s
/// `utf8Start`); no `%@`.
public func cFormat(_ format: String, _ arguments: any CVarArg...) -> String {
    // A va_list is used up by one call: measure with one, write with another.
    let length = withVaList(arguments) { vsnprintf(nil, 0, format, $0) }
    guard length > 0 else { return "" }
    var buffer = [CChar](repeating: 0, count: Int(length) + 1)
    _ = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
    return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}

extension StringProtocol {
    /// Without the leading and trailing whitespace (spaces, tabs, newlines):
    /// Foundation's `trimmingCharacters(in: .whitespaces)`, which
    /// FoundationEssentials does not have.
    public func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}

extension StringProtocol {
    /// True if this string comes before `other` in the order people expect
    /// of names, as Foundation's `localizedStandardCompare` gave it (without
    /// its locale): letters compared case-insensitively, and runs of digits
    /// by their value, so "take 2" comes before "take 10". Strings equal in
    /// that order (differing only in case or in leading zeros) are ordered by
    /// their characters, so the order is total.
    public func naturallyPrecedes<Other: StringProtocol>(_ other: Other) -> Bool {
        func isDigit(_ scalar: Unicode.Scalar?) -> Bool { scalar.map { ("0"..."9").contains($0) } ?? false }
        var a = unicodeScalars.makeIterator(), b = other.unicodeScalars.makeIterator()
        var x = a.next(), y = b.next()
        while let p = x, let q = y {
            if isDigit(p) && isDigit(q) {
                // Two runs of digits: the longer number (leading zeros aside) is larger.
                var left: [Unicode.Scalar] = [], right: [Unicode.Scalar] = []
                while isDigit(x) { left.append(x!); x = a.next() }
                while isDigit(y) { right.append(y!); y = b.next() }
                let l = left.drop { $0 == "0" }, r = right.drop { $0 == "0" }
                if l.count != r.count { return l.count < r.count }
                if !l.elementsEqual(r) { return l.lexicographicallyPrecedes(r) }
                continue
            }
            let lp = p.properties.lowercaseMapping, lq = q.properties.lowercaseMapping
            if lp != lq { return lp.unicodeScalars.lexicographicallyPrecedes(lq.unicodeScalars) }
            x = a.next()
            y = b.next()
        }
        if (x == nil) != (y == nil) { return x == nil }
        return String(self) < String(other)
    }
}

extension StringProtocol {
    /// Whether it holds a control character (a newline, an escape, …):
    /// names are shown on one line of a tablet and of the log.
    public var containsControlCharacters: Bool {
        unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// With control characters written as `\u{…}` escapes (backslashes
    /// doubled): text from the network goes into log lines this way, so that
    /// it cannot end a line or move the terminal's cursor.
    public func escapingControlCharacters() -> String {
        var result = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case _ where scalar.properties.generalCategory == .control:
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// At most `limit` characters, for quoting text from the network in a
    /// log line or an `/error` reply: longer text is cut, with its full
    /// length noted (`/aaaa… (60108 characters)`), so that one message can
    /// never make a line or a reply of its own size.
    public func cut(to limit: Int = 256) -> String {
        guard count > limit else { return String(self) }
        return "\(prefix(limit))… (\(count) characters)"
    }
}
