/// An address space as OSCQuery serves it, built once from the nodes a
/// model declares and never rebuilt: the tree, each node's description and
/// declared attributes. Values are not kept here; they are read from the
/// model's `OSCQueryValues` when a request is answered, so answers are
/// current without the tree being touched.
///
/// Laid out flat for a namespace of 200,000 nodes (a 256x256 rig): the
/// children of a node are contiguous and in address order, so a path is
/// found by a binary search per part; the attributes many nodes share (a
/// crosspoint's type, range, unit…) are kept once, as a kind, with their
/// JSON written once.
public final class OSCQueryNamespace: Sendable {
    /// One node.
    struct Entry: Sendable {
        var name: String
        var parent: Int32
        var firstChild: Int32
        var childCount: Int32
        var kind: Int32
        /// The model's key for the node's value; -1: none.
        var valueKey: Int32
        /// Where the node's description is in `descriptions`; length -1: none.
        var descriptionStart: Int32 = 0
        var descriptionLength: Int32 = -1

        var children: Range<Int> { Int(firstChild)..<Int(firstChild + childCount) }
    }

    /// Declared attributes shared by nodes, and their JSON.
    struct Kind: Sendable {
        /// The attributes: no path, no description, no value key.
        var attributes: OSCQueryNode
        /// `,"ACCESS":…,"TYPE":…`.
        var membersBeforeValue: [UInt8]
        /// `,"RANGE":…,"UNIT":…,"CLIPMODE":…,"OVERLOADS":…`.
        var membersAfterValue: [UInt8]
        var isMethod: Bool { attributes.typeTags != nil }
        var isReadable: Bool { attributes.isReadable }

        init(_ attributes: OSCQueryNode) {
            self.attributes = attributes
            membersBeforeValue = attributes.membersBeforeValue
            membersAfterValue = attributes.membersAfterValue
        }
    }

    /// A node of the namespace, as found by `node(at:)`.
    public struct Node: Sendable, Equatable {
        let index: Int
    }

    /// In breadth-first order: the root first, and each node's children
    /// contiguous, in address order.
    let entries: [Entry]
    let kinds: [Kind]
    /// Every description, one after another, in UTF-8: 200,000 of them in
    /// one allocation instead of 200,000 strings.
    let descriptions: [UInt8]

    init(entries: [Entry], kinds: [Kind], descriptions: [UInt8]) {
        self.entries = entries
        self.kinds = kinds
        self.descriptions = descriptions
    }

    /// How many nodes there are, the root included.
    public var count: Int { entries.count }

    /// The root, `/`.
    public var root: Node { Node(index: 0) }

    /// The node at an OSC address (a trailing `/` ignored); nil if none.
    public func node(at path: String) -> Node? {
        var index = 0
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            guard let child = child(of: index, named: part) else { return nil }
            index = child
        }
        return Node(index: index)
    }

    /// The child of node `index` called `name`: a binary search in address order.
    private func child(of index: Int, named name: Substring) -> Int? {
        let key = OrderKey(name)
        var range = entries[index].children
        while !range.isEmpty {
            let middle = range.lowerBound + range.count / 2
            let candidate = OrderKey(entries[middle].name)
            if candidate == key { return middle }
            if candidate < key { range = middle + 1 ..< range.upperBound } else { range = range.lowerBound ..< middle }
        }
        return nil
    }

    /// The full OSC address of a node.
    public func path(of node: Node) -> String {
        String(decoding: pathBytes(of: node.index), as: UTF8.self)
    }

    func pathBytes(of index: Int) -> [UInt8] {
        var names: [String] = []
        var index = index
        while index != 0 {
            names.append(entries[index].name)
            index = Int(entries[index].parent)
        }
        guard !names.isEmpty else { return [UInt8(ascii: "/")] }
        var bytes: [UInt8] = []
        for name in names.reversed() {
            bytes.append(UInt8(ascii: "/"))
            bytes.append(contentsOf: name.utf8)
        }
        return bytes
    }

    /// The description of node `index`, as UTF-8; nil if it has none.
    func description(of index: Int) -> ArraySlice<UInt8>? {
        let entry = entries[index]
        guard entry.descriptionLength >= 0 else { return nil }
        let start = Int(entry.descriptionStart)
        return descriptions[start..<start + Int(entry.descriptionLength)]
    }

    /// Whether the node's `VALUE` may be served (its `ACCESS` says readable).
    func isReadable(_ node: Node) -> Bool {
        kinds[Int(entries[node.index].kind)].isReadable
    }

    /// Whether the node is served with `CONTENTS`: nodes are below it, or it
    /// is no method.
    func isContainer(_ index: Int) -> Bool {
        entries[index].childCount > 0 || !kinds[Int(entries[index].kind)].isMethod
    }

    /// The order of names in an address: numbers by value (`2` before
    /// `10`), then everything else alphabetically. A total order: names of
    /// one value (`1`, `01`) are ordered by their text, so two namespaces
    /// list the same names in the same order (`OSCQueryNamespaceChange`
    /// walks them side by side) and a binary search finds either name.
    struct OrderKey: Comparable {
        let number: Int?
        let name: Substring

        init(_ name: some StringProtocol) {
            self.name = Substring(name)
            number = Int(name)
        }

        static func < (a: OrderKey, b: OrderKey) -> Bool {
            switch (a.number, b.number) {
            case let (x?, y?): x == y ? a.name < b.name : x < y
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): a.name < b.name
            }
        }

        static func == (a: OrderKey, b: OrderKey) -> Bool { a.name == b.name }
    }
}
