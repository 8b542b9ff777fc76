
/// A compact JSON writer into UTF-8 bytes, for documents streamed as they
/// are made (OSCQuery's namespace, the page's description): keys in the
/// order they are written, floats in their shortest exact form (`0.1`, not
/// `0.10000000149011612`). `JSONWriter` is the files' layout.
package struct JSONBytes {
    package private(set) var bytes: [UInt8] = []
    /// Whether the next value or key needs a comma before it.
    private var needsComma = false

    package init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// Members written by `body` as a fragment that follows other members of
    /// an object: `,"KEY":value,…` (empty if `body` writes nothing).
    package static func members(_ body: (inout JSONBytes) -> Void) -> [UInt8] {
        var out = JSONBytes()
        out.needsComma = true
        body(&out)
        return out.bytes
    }

    /// What has been written, as text (for tests and small answers).
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Hands over what has been written, and starts again empty (the comma
    /// state is kept: the next value continues the same document).
    package mutating func take() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    package mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    package mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    package mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    package mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    package mutating func key(_ key: String) {
        separate()
        JSONText.appendQuoted(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    package mutating func string(_ value: String) { separate(); JSONText.appendQuoted(value, to: &bytes); needsComma = true }
    package mutating func quoted(utf8: ArraySlice<UInt8>) {
        separate()
        utf8.withUnsafeBufferPointer { JSONText.appendQuoted(utf8: $0, to: &bytes) }
        needsComma = true
    }

    package mutating func int(_ value: some BinaryInteger) { separate(); bytes.append(contentsOf: String(value).utf8); needsComma = true }
    package mutating func bool(_ value: Bool) { separate(); bytes.append(contentsOf: (value ? "true" : "false").utf8); needsComma = true }
    package mutating func null() { separate(); bytes.append(contentsOf: "null".utf8); needsComma = true }

    package mutating func number(_ value: Double) {
        guard value.isFinite else { return null() }
        separate(); bytes.append(contentsOf: value.description.utf8); needsComma = true
    }

    package mutating func number(_ value: Float) {
        guard value.isFinite else { return null() }
        separate(); bytes.append(contentsOf: value.description.utf8); needsComma = true
    }

    /// Bytes written before elsewhere, as a whole value or as whole
    /// `,"KEY":value` members (`fragment` then starts with its comma).
    package mutating func raw(_ fragment: [UInt8]) {
        bytes.append(contentsOf: fragment)
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }
}
