/// A parsed JSON document, kept exact enough to tell `true` from `1`: the
/// preset reader checks every field's type itself, so that an error can name
/// the field.
///
/// Parsed by hand (RFC 8259), byte by byte: a 64x64 preset has 4096
/// crosspoint objects, and Foundation's decoder took tens of milliseconds
/// for them, where a recall should be ready within a period or two.
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    struct ParseError: Error, CustomStringConvertible {
        let offset: Int
        let problem: String
        var description: String { "\(problem) at byte \(offset)" }
    }

    static func parse<D: Collection<UInt8>>(_ data: D) throws(ParseError) -> JSONValue {
        var parser = Parser(bytes: Array(data))
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == parser.bytes.count else { throw parser.error("unexpected data after the document") }
        return value
    }

    /// What the value is, for error messages.
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        func error(_ problem: String) -> ParseError { ParseError(offset: index, problem: problem) }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func expect(_ byte: UInt8) throws(ParseError) {
            guard index < bytes.count, bytes[index] == byte else { throw error("expected '\(Character(UnicodeScalar(byte)))'") }
            index += 1
        }

        mutating func value(depth: Int) throws(ParseError) -> JSONValue {
            guard depth < 64 else { throw error("nested too deeply") }
            guard index < bytes.count else { throw error("unexpected end") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var fields: [String: JSONValue] = [:]
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(fields) }
                while true {
                    skipSpace()
                    let key = try string()
                    skipSpace()
                    try expect(UInt8(ascii: ":"))
                    skipSpace()
                    fields[key] = try value(depth: depth + 1)
                    skipSpace()
                    guard index < bytes.count else { throw error("unexpected end in an object") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    try expect(UInt8(ascii: "}"))
                    return .object(fields)
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [JSONValue] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                while true {
                    skipSpace()
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard index < bytes.count else { throw error("unexpected end in an array") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    try expect(UInt8(ascii: "]"))
                    return .array(items)
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): try word("true"); return .bool(true)
            case UInt8(ascii: "f"): try word("false"); return .bool(false)
            case UInt8(ascii: "n"): try word("null"); return .null
            default:
                return .number(try number())
            }
        }

        mutating func word(_ text: String) throws(ParseError) {
            for byte in text.utf8 { try expect(byte) }
        }

        mutating func number() throws(ParseError) -> Double {
            let start = index
            func digits() { while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 } }
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            let integer = index
            digits()
            guard index > integer else { throw error("expected a value") }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                let fraction = index
                digits()
                guard index > fraction else { throw error("expected digits after '.'") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                let exponent = index
                digits()
                guard index > exponent else { throw error("expected digits in an exponent") }
            }
            guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else {
                throw ParseError(offset: start, problem: "not a number")
            }
            return value
        }

        mutating func string() throws(ParseError) -> String {
            try expect(UInt8(ascii: "\""))
            var run = index // start of a run of plain bytes
            var text = ""
            func flush() { text += String(decoding: bytes[run..<index], as: UTF8.self) }
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
                  let code = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16) else {
                throw error("invalid \\u escape")
            }
            index += 4
            return code
        }
    }
}
