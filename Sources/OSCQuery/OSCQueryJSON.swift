import OSC
import SystemSupport

/// A small JSON writer into UTF-8 bytes: keys in the order they are written
/// (the proposal's order, for people reading it), floats in their shortest
/// exact form (`0.1`, not `0.10000000149011612`), and OSC values mapped as
/// the proposal's table says.
struct OSCQueryJSON {
    private(set) var bytes: [UInt8] = []
    /// Whether the next value or key needs a comma before it.
    private var needsComma = false

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// Members written by `body` as a fragment that follows other members of
    /// an object: `,"KEY":value,…` (empty if `body` writes nothing).
    static func members(_ body: (inout OSCQueryJSON) -> Void) -> [UInt8] {
        var out = OSCQueryJSON()
        out.needsComma = true
        body(&out)
        return out.bytes
    }

    /// What has been written, as text (for tests and small answers).
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Hands over what has been written, and starts again empty (the comma
    /// state is kept: the next value continues the same document).
    mutating func take() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    mutating func key(_ key: String) {
        separate()
        JSONText.appendQuoted(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func string(_ value: String) { separate(); JSONText.appendQuoted(value, to: &bytes); needsComma = true }
    mutating func quoted(utf8: ArraySlice<UInt8>) {
        separate()
        utf8.withUnsafeBufferPointer { JSONText.appendQuoted(utf8: $0, to: &bytes) }
        needsComma = true
    }

    mutating func int(_ value: Int) { separate(); bytes.append(contentsOf: String(value).utf8); needsComma = true }
    mutating func bool(_ value: Bool) { separate(); bytes.append(contentsOf: (value ? "true" : "false").utf8); needsComma = true }
    mutating func null() { separate(); bytes.append(contentsOf: "null".utf8); needsComma = true }

    mutating func number(_ value: Double) {
        guard value.isFinite else { return null() }
        separate(); bytes.append(contentsOf: value.description.utf8); needsComma = true
    }

    mutating func number(_ value: Float) {
        guard value.isFinite else { return null() }
        separate(); bytes.append(contentsOf: value.description.utf8); needsComma = true
    }

    /// Bytes written before elsewhere, as a whole value or as whole
    /// `,"KEY":value` members (`fragment` then starts with its comma).
    mutating func raw(_ fragment: [UInt8]) {
        bytes.append(contentsOf: fragment)
        needsComma = true
    }

    /// An OSC argument as its JSON equivalent: numbers (`i f h d`) as
    /// numbers, strings (`s S`) as strings; blobs and the valueless types
    /// (`T F N I`) as null, as the proposal's table of JSON equivalents says.
    mutating func argument(_ argument: OSCArgument) {
        switch argument {
        case .int32(let v): int(Int(v))
        case .int64(let v): separate(); bytes.append(contentsOf: String(v).utf8); needsComma = true
        case .float(let v): number(v)
        case .double(let v): number(v)
        case .string(let v), .symbol(let v): string(v)
        case .bool, .nil, .impulse, .blob, .unsupported: null()
        }
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }
}
