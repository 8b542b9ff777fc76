import OSC
import SystemSupport

/// A small JSON writer: keys in the order they are written (the proposal's
/// order, for people reading it), floats in their shortest exact form
/// (`0.1`, not `0.10000000149011612`), and OSC values mapped as the
/// proposal's table says.
struct OSCQueryJSON {
    private(set) var text = ""
    /// Whether the next value or key needs a comma before it.
    private var needsComma = false

    mutating func beginObject() { separate(); text += "{"; needsComma = false }
    mutating func endObject() { text += "}"; needsComma = true }
    mutating func beginArray() { separate(); text += "["; needsComma = false }
    mutating func endArray() { text += "]"; needsComma = true }

    mutating func key(_ key: String) {
        separate()
        appendQuoted(key)
        text += ":"
        needsComma = false
    }

    mutating func string(_ value: String) { separate(); appendQuoted(value); needsComma = true }
    mutating func int(_ value: Int) { separate(); text += String(value); needsComma = true }
    mutating func bool(_ value: Bool) { separate(); text += value ? "true" : "false"; needsComma = true }
    mutating func null() { separate(); text += "null"; needsComma = true }

    mutating func number(_ value: Double) {
        guard value.isFinite else { return null() }
        separate(); text += value.description; needsComma = true
    }

    mutating func number(_ value: Float) {
        guard value.isFinite else { return null() }
        separate(); text += value.description; needsComma = true
    }

    /// An OSC argument as its JSON equivalent: numbers (`i f h d`) as
    /// numbers, strings (`s S`) as strings; blobs and the valueless types
    /// (`T F N I`) as null, as the proposal's table of JSON equivalents says.
    mutating func argument(_ argument: OSCArgument) {
        switch argument {
        case .int32(let v): int(Int(v))
        case .int64(let v): separate(); text += String(v); needsComma = true
        case .float(let v): number(v)
        case .double(let v): number(v)
        case .string(let v), .symbol(let v): string(v)
        case .bool, .nil, .impulse, .blob, .unsupported: null()
        }
    }

    private mutating func separate() {
        if needsComma { text += "," }
    }

    private mutating func appendQuoted(_ string: String) {
        JSONText.appendQuoted(string, to: &text)
    }
}
