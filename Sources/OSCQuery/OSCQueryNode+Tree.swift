/// Building and walking a namespace by address.
extension OSCQueryNode {
    /// The address parts of `path`: `/a/b/` gives `["a", "b"]`, `/` none.
    static func parts(of path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    /// The node at `path` below this one (this node for `/` or an empty path),
    /// with `path` relative to the root of the tree this node is the root of.
    public func descendant(at path: String) -> OSCQueryNode? {
        var node = self
        for part in Self.parts(of: path) {
            guard let child = node.contents[String(part)] else { return nil }
            node = child
        }
        return node
    }

    /// Inserts `node` at its `fullPath` below this root node, creating the
    /// containers on the way and replacing a node already there (whose
    /// children are kept if `node` has none).
    public mutating func insert(_ node: OSCQueryNode) {
        let parts = Self.parts(of: node.fullPath)
        guard !parts.isEmpty else {
            let children = contents
            self = node
            if contents.isEmpty { contents = children }
            return
        }
        insert(node, parts: parts[...], prefix: "")
    }

    private mutating func insert(_ node: OSCQueryNode, parts: ArraySlice<Substring>, prefix: String) {
        let name = String(parts.first!)
        let path = prefix + "/" + name
        if parts.count == 1 {
            var node = node
            if node.contents.isEmpty, let existing = contents[name] { node.contents = existing.contents }
            contents[name] = node
            return
        }
        var child = contents[name] ?? .container(path)
        child.insert(node, parts: parts.dropFirst(), prefix: path)
        contents[name] = child
    }
}
