/// The fields of a JSON object (see `JSONDocument`), in document order: its
/// keys and values in turn. As in a dictionary, a key given twice means its
/// last value. A preset's objects have a handful of fields, which a linear
/// search finds faster than hashing would. Keys are asked for by the names
/// written in the code (static strings), so nothing is allocated to look one up.
package struct JSONObject {
    let document: JSONDocument.Storage
    /// The object's own node; its first key follows.
    let index: Int
    let count: Int
    let end: Int

    /// Calls `body` with the node index of every key and the key's value, in
    /// document order.
    package func forEachField(_ body: (_ key: Int, _ value: JSONValue) -> Void) {
        var position = index + 1
        while position < end {
            let value = JSONValue(document: document, index: position + 1)
            body(position, value)
            position = value.end
        }
    }

    /// Every key and its value, in document order (a key given twice
    /// appears twice): for objects whose keys are the file's own names.
    package var entries: [(key: String, value: JSONValue)] {
        var entries: [(key: String, value: JSONValue)] = []
        forEachField { name, value in entries.append((document.string(at: name) ?? "", value)) }
        return entries
    }

    package subscript(key: StaticString) -> JSONValue? {
        var found: JSONValue?
        forEachField { name, value in
            if document.string(at: name, is: key) { found = value }
        }
        return found
    }

    /// The value of a key named at run time (the catalogue's names).
    package subscript(key: String) -> JSONValue? {
        var found: JSONValue?
        forEachField { name, value in
            if document.string(at: name) == key { found = value }
        }
        return found
    }

    /// The first key, in sorted order, that `allowed` does not contain.
    package func firstKey(notIn allowed: [String]) -> String? {
        var unknown: String?
        forEachField { name, _ in
            guard let key = document.string(at: name), !allowed.contains(key) else { return }
            if unknown.map({ key < $0 }) ?? true { unknown = key }
        }
        return unknown
    }

    /// The first key, in sorted order, that `allowed` does not contain.
    package func firstKey(notIn allowed: [StaticString]) -> String? {
        var unknown: String?
        forEachField { name, _ in
            guard !allowed.contains(where: { document.string(at: name, is: $0) }),
                  let key = document.string(at: name) else { return }
            if unknown.map({ key < $0 }) ?? true { unknown = key }
        }
        return unknown
    }
}
