/// Reads a pattern's bytes into a `PatternNode`, as glibc's `regcomp`
/// reads them with `REG_EXTENDED` in the C locale: POSIX extended regular
/// expressions, byte by byte. What glibc refuses is refused here too (the
/// differential test holds the two together); a few things glibc accepts
/// are refused as well, each with its reason: back-references (they make
/// matching exponential), GNU's backslash escapes, a lone `)`, collating
/// elements and non-ASCII bytes in brackets, and counts over 255.
struct PatternParser {
    // Internal rather than private: the bracket reader is an extension
    // in PatternParser+Brackets.swift.
    let bytes: [UInt8]
    var at = 0
    /// How many groups are open: a `)` closes one only when there is one.
    private var depth = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    /// The whole pattern.
    mutating func parse() throws(PortPattern.Invalid) -> PatternNode {
        let node = try alternatives()
        if at < bytes.count {
            // Only a `)` without its `(` stops the top level early. glibc
            // takes it for the character; POSIX leaves it undefined, and
            // the patterns the page writes escape it.
            throw Self.invalid("unmatched ) (write \\) for the character)")
        }
        return node
    }

    static func invalid(_ what: String) -> PortPattern.Invalid {
        PortPattern.Invalid(reason: "not a regular expression: \(what)")
    }

    var next: UInt8? { at < bytes.count ? bytes[at] : nil }

    /// `branch | branch | …`; a branch may be empty, as glibc allows.
    private mutating func alternatives() throws(PortPattern.Invalid) -> PatternNode {
        var branches = [try branch()]
        while next == UInt8(ascii: "|") {
            at += 1
            branches.append(try branch())
        }
        return branches.count == 1 ? branches[0] : .choice(branches)
    }

    /// Expressions up to a `|`, the group's `)` or the end.
    private mutating func branch() throws(PortPattern.Invalid) -> PatternNode {
        var parts: [PatternNode] = []
        // A `)` ends the branch at any depth; at the top level `parse` refuses it.
        while let byte = next, byte != UInt8(ascii: "|"), byte != UInt8(ascii: ")") {
            parts.append(try expression())
        }
        return parts.count == 1 ? parts[0] : (parts.isEmpty ? .empty : .sequence(parts))
    }

    /// An atom and the repetitions after it. An anchor takes none: `^*`
    /// is refused, as glibc refuses it ("Invalid preceding regular expression").
    private mutating func expression() throws(PortPattern.Invalid) -> PatternNode {
        let byte = bytes[at]
        var node: PatternNode
        switch byte {
        case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "{"):
            throw Self.invalid("nothing to repeat before \(Character(Unicode.Scalar(byte)))")
        case UInt8(ascii: "^"): at += 1; return .start
        case UInt8(ascii: "$"): at += 1; return .end
        case UInt8(ascii: "."): at += 1; node = .bytes(.dot)
        case UInt8(ascii: "["): at += 1; node = .bytes(try bracket())
        case UInt8(ascii: "("):
            at += 1
            depth += 1
            let inner = try alternatives()
            guard next == UInt8(ascii: ")") else { throw Self.invalid("unmatched (") }
            at += 1
            depth -= 1
            node = inner
        case UInt8(ascii: "\\"): node = .bytes(ByteSet(byte: try escape()))
        default: at += 1; node = .bytes(ByteSet(byte: byte))
        }
        while let byte = next {
            switch byte {
            case UInt8(ascii: "*"): at += 1; node = .repeated(node, min: 0, max: nil)
            case UInt8(ascii: "+"): at += 1; node = .repeated(node, min: 1, max: nil)
            case UInt8(ascii: "?"): at += 1; node = .repeated(node, min: 0, max: 1)
            case UInt8(ascii: "{"):
                at += 1
                let (least, most) = try interval()
                node = .repeated(node, min: least, max: most)
            default: return node
            }
        }
        return node
    }

    /// What follows a backslash: the character itself when it is not a
    /// letter or a digit. `\1`–`\9` would be back-references, which no
    /// automaton can match in linear time; glibc reads the other letters
    /// either as GNU operators (`\w \b \<`…) or as the plain letter (`\n` is
    /// `n`), neither of which a reader expects, so both are refused.
    private mutating func escape() throws(PortPattern.Invalid) -> UInt8 {
        at += 1
        guard let byte = next else { throw Self.invalid("trailing backslash") }
        at += 1
        let scalar = Character(Unicode.Scalar(byte))
        switch byte {
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            throw PortPattern.Invalid(reason: "back-references are not supported (\\\(scalar))")
        case UInt8(ascii: "w"), UInt8(ascii: "W"), UInt8(ascii: "s"), UInt8(ascii: "S"),
             UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "<"), UInt8(ascii: ">"),
             UInt8(ascii: "`"), UInt8(ascii: "'"):
            throw PortPattern.Invalid(reason: "\\\(scalar) is not supported (a GNU extension; write a bracket expression or an anchor)")
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            throw PortPattern.Invalid(reason: "\\\(scalar) is not supported (a backslash before a letter or digit)")
        default:
            return byte
        }
    }

    /// `{n}`, `{n,}`, `{n,m}`, and glibc's `{,m}` and `{,}` (from 0); the
    /// `{` is already read. Counts over 255 are refused: each count is a
    /// copy of the repeated part in the NFA.
    private mutating func interval() throws(PortPattern.Invalid) -> (Int, Int?) {
        let least = number()
        var most = least
        if next == UInt8(ascii: ",") {
            at += 1
            most = number()
        } else if least == nil {
            throw Self.invalid(next == nil ? "unmatched {" : "invalid repetition count")
        }
        guard let close = next else { throw Self.invalid("unmatched {") }
        guard close == UInt8(ascii: "}") else { throw Self.invalid("invalid repetition count") }
        at += 1
        let from = least ?? 0
        if let most, most < from { throw Self.invalid("repetition count \(from) above \(most)") }
        let largest = max(from, most ?? 0)
        if largest > PatternLimits.repetition {
            throw PortPattern.Invalid(reason: "pattern too complex: repetition count \(largest) over \(PatternLimits.repetition)")
        }
        return (from, most)
    }

    /// Decimal digits, or nil when there are none; large values saturate.
    private mutating func number() -> Int? {
        var value: Int?
        while let byte = next, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            value = min(100_000, (value ?? 0) * 10 + Int(byte - UInt8(ascii: "0")))
            at += 1
        }
        return value
    }
}
