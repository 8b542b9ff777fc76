import FoundationEssentials

/// Writes the preset layout: one field per line, list entries one per line,
/// two-space indent. Stable output, so presets diff cleanly in git.
package struct JSONWriter {
    private var lines: [String] = []
    private var depth = 0
    private var needsComma = false

    package init() {}

    package mutating func open(_ brace: String) {
        lines.append(brace)
        depth += 1
        needsComma = false
    }

    package mutating func close(_ brace: String) {
        depth -= 1
        lines.append(brace)
    }

    package mutating func field(_ name: String, _ value: String) {
        if needsComma, let last = lines.popLast() { lines.append(last + ",") }
        lines.append(String(repeating: "  ", count: depth) + "\(JSONWriter.quoted(name)): \(value)")
        needsComma = true
    }

    package mutating func list(_ name: String, _ items: [String]) {
        guard !items.isEmpty else { field(name, "[]"); return }
        let indent = String(repeating: "  ", count: depth + 1)
        let body = items.enumerated().map { indent + $0.element + ($0.offset < items.count - 1 ? "," : "") }
        field(name, "[\n" + body.joined(separator: "\n") + "\n" + String(repeating: "  ", count: depth) + "]")
    }

    package var data: Data { Data((lines.joined(separator: "\n") + "\n").utf8) }

    package static func quoted(_ text: String) -> String { JSONText.quoted(text) }

    /// The shortest decimal that reads back as the same Float.
    package static func number(_ value: Float) -> String {
        value == value.rounded() && abs(value) < 1e7 ? String(Int(value)) : "\(value)"
    }

    package static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }
}
