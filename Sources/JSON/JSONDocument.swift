/// A parsed JSON document (RFC 8259), kept exact enough to tell `true` from
/// `1`: the preset reader checks every field's type itself, so that an error
/// can name the field.
///
/// Parsed by hand, byte by byte: a 64x64 preset has 4096 crosspoint objects,
/// and FoundationEssentials' JSONDecoder takes about 20 ms for them (docs/
/// performance.md, "Why not Codable"), where a
/// recall should be ready within a period or two. The document is kept flat:
/// every value is one node of one array, in document order; a container's
/// node holds its number of entries and where its contents end, and an
/// object's contents are its keys and values in turn. Plain ASCII strings,
/// every key among them, stay in the document's bytes until asked for, and
/// numbers are read from the bytes without making a string. So parsing
/// allocates the array of nodes and little else: no dictionary per object
/// (a dictionary per crosspoint object was most of the cost), no string per
/// key or number.
package enum JSONDocument {
    /// One value (or an object's key), with no reference to anything: the
    /// nodes are freed all at once.
    enum Node {
        case null
        case bool(Bool)
        case number(Double)
        /// A string of plain ASCII without escapes: where its bytes are.
        case ascii(start: UInt32, count: UInt32)
        /// Any other string: its place in the table of decoded texts.
        case text(UInt32)
        /// `end`: the index of the first node after the container's contents.
        case array(count: UInt32, end: UInt32)
        case object(count: UInt32, end: UInt32)
    }

    package struct ParseError: Error, CustomStringConvertible {
        let offset: Int
        let problem: String
        package var description: String { "\(problem) at byte \(offset)" }
    }

    /// A parsed document as the values read it: its nodes, its bytes and
    /// its decoded texts, borrowed for the time of a `read`.
    struct Storage {
        let nodes: UnsafeBufferPointer<Node>
        let bytes: UnsafeBufferPointer<UInt8>
        let texts: UnsafeBufferPointer<String>

        /// The string at `index`, if that node is a string.
        func string(at index: Int) -> String? {
            switch nodes[index] {
            case .ascii(let start, let count):
                String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(start)..<Int(start + count)]), as: UTF8.self)
            case .text(let position): texts[Int(position)]
            default: nil
            }
        }

        /// Whether the node at `index` is the string `key`.
        @inline(__always)
        func string(at index: Int, is key: StaticString) -> Bool {
            switch nodes[index] {
            case .ascii(let start, let count):
                // An ASCII string can equal another one only byte for byte;
                // a key of other characters is compared as a String
                // (canonical equivalence), as a dictionary would.
                guard key.hasPointerRepresentation, key.isASCII else { return string(at: index) == "\(key)" }
                guard Int(count) == key.utf8CodeUnitCount else { return false }
                let utf8 = key.utf8Start
                for k in 0..<Int(count) where bytes[Int(start) + k] != utf8[k] { return false }
                return true
            case .text(let position):
                return texts[Int(position)] == "\(key)"
            default:
                return false
            }
        }
    }

    /// Parses `data` and reads it with `body`; a malformed document is
    /// `failure(error)`. The values `body` is given point into the document:
    /// they are valid only inside `body`.
    package static func read<D: Collection<UInt8>, R, E: Error>(
        _ data: D, failure: (ParseError) -> E, _ body: (JSONValue) throws(E) -> R
    ) throws(E) -> R {
        func parseAndRead(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<R, E> {
            var parser = Parser(bytes: bytes)
            do throws(ParseError) {
                guard bytes.count < Int(UInt32.max) else { throw parser.error("document too large") }
                parser.skipSpace()
                try parser.value(depth: 0)
                parser.skipSpace()
                guard parser.index == bytes.count else { throw parser.error("unexpected data after the document") }
            } catch {
                return .failure(failure(error))
            }
            return parser.nodes.withUnsafeBufferPointer { nodes in
                parser.texts.withUnsafeBufferPointer { texts in
                    do throws(E) {
                        return .success(try body(JSONValue(document: Storage(nodes: nodes, bytes: bytes, texts: texts), index: 0)))
                    } catch {
                        return .failure(error)
                    }
                }
            }
        }
        let result = data.withContiguousStorageIfAvailable(parseAndRead) ?? Array(data).withUnsafeBufferPointer(parseAndRead)
        return try result.get()
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        var nodes: [Node] = []
        var texts: [String] = []

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            // About one node per 7 bytes in a preset's crosspoint list.
            nodes.reserveCapacity(bytes.count / 7 + 16)
        }

        func error(_ problem: String) -> ParseError { ParseError(offset: index, problem: problem) }

        @inline(__always)
        mutating func skipSpace() {
            var i = index
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x09 || bytes[i] == 0x0D { i += 1 }
            index = i
        }

        @inline(__always)
        mutating func expect(_ byte: UInt8) throws(ParseError) {
            guard index < bytes.count, bytes[index] == byte else { throw error("expected '\(Character(UnicodeScalar(byte)))'") }
            index += 1
        }

        mutating func value(depth: Int) throws(ParseError) {
            guard depth < 64 else { throw error("nested too deeply") }
            guard index < bytes.count else { throw error("unexpected end") }
            switch bytes[index] {
            case UInt8(ascii: "{"): try container(object: true, depth: depth)
            case UInt8(ascii: "["): try container(object: false, depth: depth)
            case UInt8(ascii: "\""):
                nodes.append(try string())
            case UInt8(ascii: "t"): try word("true"); nodes.append(.bool(true))
            case UInt8(ascii: "f"): try word("false"); nodes.append(.bool(false))
            case UInt8(ascii: "n"): try word("null"); nodes.append(.null)
            default:
                nodes.append(.number(try number()))
            }
        }

        /// An object or an array: its node, which becomes its entry count and
        /// end once they are known, then its contents (an object's keys and
        /// values in turn).
        mutating func container(object: Bool, depth: Int) throws(ParseError) {
            let close = object ? UInt8(ascii: "}") : UInt8(ascii: "]")
            index += 1
            let at = nodes.count
            nodes.append(.null)
            var count: UInt32 = 0
            skipSpace()
            if index < bytes.count, bytes[index] == close {
                index += 1
            } else {
                while true {
                    skipSpace()
                    if object {
                        nodes.append(try string())
                        skipSpace()
                        try expect(UInt8(ascii: ":"))
                        skipSpace()
                    }
                    try value(depth: depth + 1)
                    count += 1
                    skipSpace()
                    guard index < bytes.count else { throw error(object ? "unexpected end in an object" : "unexpected end in an array") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    try expect(close)
                    break
                }
            }
            let end = UInt32(nodes.count)
            nodes[at] = object ? .object(count: count, end: end) : .array(count: count, end: end)
        }

        /// A string's node. Plain ASCII without escapes, which every key of
        /// a preset is, stays where it is in the document; anything else is
        /// decoded into the table of texts.
        mutating func string() throws(ParseError) -> Node {
            try expect(UInt8(ascii: "\""))
            let start = index
            var i = index
            var bits: UInt8 = 0
            while i < bytes.count {
                let byte = bytes[i]
                if byte == UInt8(ascii: "\""), bits < 0x80 {
                    index = i + 1
                    return .ascii(start: UInt32(start), count: UInt32(i - start))
                }
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                bits |= byte
                i += 1
            }
            index = start - 1
            texts.append(try text())
            return .text(UInt32(texts.count - 1))
        }

        mutating func word(_ text: StaticString) throws(ParseError) {
            let utf8 = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
            for byte in utf8 { try expect(byte) }
        }

        func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

        /// A number, read from its bytes. Up to 19 significant digits and a
        /// power of ten within 10^±22 (every number a preset holds) are exact
        /// in a Double, so one multiplication or division by the power gives
        /// the correctly rounded value, the same as the standard library's
        /// conversion; anything else goes through that conversion.
        mutating func number() throws(ParseError) -> Double {
            let start = index
            var i = index
            let negative = i < bytes.count && bytes[i] == UInt8(ascii: "-")
            if negative { i += 1 }
            var significand: UInt64 = 0
            var digits = 0           // significant digits in `significand`
            var scale = 0            // power of ten the digits after the point take away
            var exact = true         // false: more digits than `significand` holds
            let integer = i
            while i < bytes.count, isDigit(bytes[i]) {
                let d = UInt64(bytes[i] &- UInt8(ascii: "0"))
                if significand != 0 || d != 0 { // not a leading zero
                    if digits < 19 { significand = significand &* 10 &+ d; digits += 1 } else { exact = false }
                }
                i += 1
            }
            guard i > integer else { index = i; throw error("expected a value") }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                let fraction = i
                while i < bytes.count, isDigit(bytes[i]) {
                    let d = UInt64(bytes[i] &- UInt8(ascii: "0"))
                    scale -= 1
                    if significand != 0 || d != 0 {
                        if digits < 19 { significand = significand &* 10 &+ d; digits += 1 } else { exact = false }
                    }
                    i += 1
                }
                guard i > fraction else { index = i; throw error("expected digits after '.'") }
            }
            var exponent = 0
            if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                i += 1
                var exponentNegative = false
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                    exponentNegative = bytes[i] == UInt8(ascii: "-")
                    i += 1
                }
                let first = i
                while i < bytes.count, isDigit(bytes[i]) {
                    if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[i] &- UInt8(ascii: "0")) } else { exact = false }
                    i += 1
                }
                guard i > first else { index = i; throw error("expected digits in an exponent") }
                if exponentNegative { exponent = -exponent }
            }
            index = i
            if exact {
                if significand == 0 { return negative ? -0.0 : 0 }
                let power = exponent + scale
                if significand <= 1 << 53, (-22...22).contains(power) {
                    let magnitude = power < 0 ? Double(significand) / Self.powersOfTen[-power]
                                              : Double(significand) * Self.powersOfTen[power]
                    return negative ? -magnitude : magnitude
                }
            }
            guard let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)) else {
                throw ParseError(offset: start, problem: "not a number")
            }
            return value
        }

        /// 10^0 … 10^22, every one exact in a Double.
        static let powersOfTen: [Double] = [
            1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
            1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
        ]

        /// A string with escapes or other than ASCII, decoded (invalid UTF-8
        /// is repaired with replacement characters).
        mutating func text() throws(ParseError) -> String {
            try expect(UInt8(ascii: "\""))
            var run = index // start of a run of plain bytes
            var text = ""
            func flush() { text += String(decoding: UnsafeBufferPointer(rebasing: bytes[run..<index]), as: UTF8.self) }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    flush()
                    index += 1
                    return text
                }
                guard byte >= 0x20 else { throw error("control character in a string") }
                if byte != UInt8(ascii: "\\") { index += 1; continue }
                flush()
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): text.unicodeScalars.append("\"")
                case UInt8(ascii: "\\"): text.unicodeScalars.append("\\")
                case UInt8(ascii: "/"): text.unicodeScalars.append("/")
                case UInt8(ascii: "b"): text.unicodeScalars.append("\u{08}")
                case UInt8(ascii: "f"): text.unicodeScalars.append("\u{0C}")
                case UInt8(ascii: "n"): text.unicodeScalars.append("\n")
                case UInt8(ascii: "r"): text.unicodeScalars.append("\r")
                case UInt8(ascii: "t"): text.unicodeScalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {
                        try expect(UInt8(ascii: "\\"))
                        try expect(UInt8(ascii: "u"))
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                    text.unicodeScalars.append(scalar)
                default:
                    throw error("invalid escape")
                }
                run = index
            }
            throw error("unterminated string")
        }

        mutating func hex4() throws(ParseError) -> UInt32 {
            guard index + 4 <= bytes.count,
                  let code = UInt32(String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<(index + 4)]), as: UTF8.self), radix: 16) else {
                throw error("invalid \\u escape")
            }
            index += 4
            return code
        }
    }
}
