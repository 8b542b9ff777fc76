/// The entries of a JSON array (see `JSONDocument`), in order.
package struct JSONArray: Sequence {
    let document: JSONDocument.Storage
    /// The array's own node; its first entry follows.
    let index: Int
    package let count: Int
    let end: Int

    package struct Iterator: IteratorProtocol {
        let document: JSONDocument.Storage
        var position: Int
        let end: Int

        package mutating func next() -> JSONValue? {
            guard position < end else { return nil }
            let value = JSONValue(document: document, index: position)
            position = value.end
            return value
        }
    }

    package func makeIterator() -> Iterator { Iterator(document: document, position: index + 1, end: end) }

    package var underestimatedCount: Int { count }
}
