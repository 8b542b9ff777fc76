extension PatternParser {
    /// One item of a bracket expression: a byte, or a class `[:name:]`.
    private enum Item {
        case byte(UInt8)
        case named(ByteSet)
    }

    /// A bracket expression, the `[` already read, as glibc reads it in the
    /// C locale: `^` first negates; `]` first (after any `^`) is the
    /// character; a backslash is the character; `-` is the character first
    /// or last and a range between two bytes elsewhere (`[a-z-9]` is refused,
    /// as glibc refuses it); a range or a class never ends a range.
    mutating func bracket() throws(PortPattern.Invalid) -> ByteSet {
        var set = ByteSet()
        let negated = next == UInt8(ascii: "^")
        if negated { at += 1 }
        var first = true
        while true {
            guard let byte = next else { throw Self.invalid("unmatched [") }
            if byte == UInt8(ascii: "]") && !first { at += 1; break }
            if byte == UInt8(ascii: "-") && !first && peek(1) != UInt8(ascii: "]") {
                throw Self.invalid("invalid range in a bracket expression (a - not first or last)")
            }
            first = false
            switch try item() {
            case .named(let members):
                set.formUnion(members)
            case .byte(let low):
                // `-` and then not `]`: a range to the next item.
                if next == UInt8(ascii: "-"), let after = peek(1), after != UInt8(ascii: "]") {
                    at += 1
                    guard case .byte(let high) = try item() else {
                        throw Self.invalid("invalid range in a bracket expression (a class ends it)")
                    }
                    guard low <= high else {
                        throw Self.invalid("invalid range \(Character(Unicode.Scalar(low)))-\(Character(Unicode.Scalar(high)))")
                    }
                    set.insert(low, through: high)
                } else {
                    set.insert(low)
                }
            }
        }
        return negated ? set.inverted : set
    }

    private func peek(_ offset: Int) -> UInt8? {
        at + offset < bytes.count ? bytes[at + offset] : nil
    }

    /// A byte or a class. `[.` and `[=` (collating elements, equivalence
    /// classes) are refused: in the C locale they only name single bytes,
    /// which can be written plainly. A byte over 127 is refused: in a
    /// bracket it would stand for one byte of a character's UTF-8, not the
    /// character, which is never what a pattern like `[éè]` means.
    private mutating func item() throws(PortPattern.Invalid) -> Item {
        guard let byte = next else { throw Self.invalid("unmatched [") }
        if byte == UInt8(ascii: "["), let kind = peek(1) {
            switch kind {
            case UInt8(ascii: ":"):
                at += 2
                return .named(try className())
            case UInt8(ascii: "."), UInt8(ascii: "="):
                throw PortPattern.Invalid(reason: "[\(Character(Unicode.Scalar(kind)))…\(Character(Unicode.Scalar(kind)))] in a bracket expression is not supported (collating elements and equivalence classes)")
            default: break
            }
        }
        guard byte < 0x80 else {
            throw PortPattern.Invalid(reason: "non-ASCII characters in a bracket expression are not supported (write them outside, e.g. (é|è))")
        }
        at += 1
        return .byte(byte)
    }

    /// The name of `[:name:]` up to its `:]`, `[:` already read.
    private mutating func className() throws(PortPattern.Invalid) -> ByteSet {
        let begin = at
        while at + 1 < bytes.count, !(bytes[at] == UInt8(ascii: ":") && bytes[at + 1] == UInt8(ascii: "]")) { at += 1 }
        guard at + 1 < bytes.count else { throw Self.invalid("unmatched [") }
        let name = String(decoding: bytes[begin..<at], as: UTF8.self)
        at += 2
        guard let set = ByteSet.named(name) else { throw Self.invalid("unknown character class [:\(name):]") }
        return set
    }
}
