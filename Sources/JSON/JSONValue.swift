/// One value of a parsed JSON document (see `JSONDocument`): where it is
/// among the document's nodes. Valid only inside the `JSONDocument.read` it
/// came from.
package struct JSONValue {
    let document: JSONDocument.Storage
    let index: Int

    var node: JSONDocument.Node { document.nodes[index] }

    /// The index of the first node after this value and everything in it.
    var end: Int {
        switch node {
        case .array(_, let end), .object(_, let end): Int(end)
        default: index + 1
        }
    }

    package var isNull: Bool {
        if case .null = node { true } else { false }
    }

    package var bool: Bool? {
        if case .bool(let flag) = node { flag } else { nil }
    }

    package var number: Double? {
        if case .number(let number) = node { number } else { nil }
    }

    package var string: String? { document.string(at: index) }

    package var object: JSONObject? {
        guard case .object(let count, let end) = node else { return nil }
        return JSONObject(document: document, index: index, count: Int(count), end: Int(end))
    }

    package var array: JSONArray? {
        guard case .array(let count, let end) = node else { return nil }
        return JSONArray(document: document, index: index, count: Int(count), end: Int(end))
    }

    /// What the value is, for error messages.
    package var kind: String {
        switch node {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .ascii, .text: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
