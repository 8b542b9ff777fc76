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

    /// An object on one line, `{ "in": 1, "out": 2 }`, from its fields'
    /// names and their values, each already JSON.
    package static func inline(_ fields: [(String, String)]) -> String {
        "{ " + fields.map { "\(quoted($0.0)): \($0.1)" }.joined(separator: ", ") + " }"
    }

    /// An object over several lines, a field a line, for a document read
    /// by programs and people (`catalogue.json`): values JSON already,
    /// the object itself at `indent`.
    package static func object(_ fields: [(String, String)], indent: String = "") -> String {
        "{\n" + fields.map { "\(indent)  \(quoted($0.0)): \($0.1)" }.joined(separator: ",\n") + "\n\(indent)}"
    }

    /// An array over several lines, an item (JSON already) a line.
    package static func array(_ items: [String], indent: String = "") -> String {
        "[\n" + items.map { "\(indent)  \($0)" }.joined(separator: ",\n") + "\n\(indent)]"
    }

    /// An array on one line, `["a", "b"]`, of items JSON already.
    package static func inlineArray(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }

    /// Whole numbers as an array on one line, `[1, 3]`.
    package static func numbers(_ values: [Int]) -> String {
        inlineArray(values.map(String.init))
    }

    package static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }
}
