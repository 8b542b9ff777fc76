
/// JSON string escaping, written once: for the preset, state and access
/// files, the OSCQuery namespace and the page's description.
public enum JSONText {
    /// `text` as a JSON string, quotes included: quotes, backslashes and
    /// control characters escaped, everything else as it is (UTF-8).
    public static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        appendQuoted(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` as a JSON string, as `quoted` writes it, to UTF-8 bytes.
    public static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendQuoted(utf8: $0, to: &out) }
    }

    /// Appends text given as UTF-8 bytes as a JSON string.
    public static func appendQuoted(utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most names and descriptions need no escape: one copy.
        if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out.append(contentsOf: utf8)
        } else {
            for byte in utf8 { appendEscaped(byte, to: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func appendEscaped(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
        case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
        case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
        case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
        case ..<0x20:
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            out.append(contentsOf: #"\u00"#.utf8)
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0xF)])
        default:
            // UTF-8 bytes above 0x7F pass as they are.
            out.append(byte)
        }
    }
}
