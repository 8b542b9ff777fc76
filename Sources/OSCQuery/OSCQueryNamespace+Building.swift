/// Building a namespace from declared nodes.
extension OSCQueryNamespace {
    /// The namespace of `nodes`: each at its `fullPath`, with the containers
    /// on the way made as needed (`ACCESS` 0, no description) unless
    /// declared themselves; `/` declares the root. A path declared twice
    /// keeps the last declaration.
    public convenience init(_ nodes: some Sequence<OSCQueryNode>) {
        self.init { declare in nodes.forEach(declare) }
    }

    /// The namespace of the nodes `declaring` gives to the function it is
    /// passed, one at a time: a namespace of 200,000 nodes is built without
    /// a list of them all.
    public convenience init(declaring: (_ declare: (OSCQueryNode) -> Void) -> Void) {
        var draft = Draft()
        declaring { draft.declare($0) }
        let (entries, kinds) = draft.laidOut()
        self.init(entries: entries, kinds: kinds, descriptions: draft.descriptions)
    }

    /// The tree while it is declared, in declaration order.
    private struct Draft {
        struct ChildKey: Hashable {
            var parent: Int32
            var name: String
        }

        var entries = [Entry(name: "", parent: -1, firstChild: 0, childCount: 0, kind: 0, valueKey: -1)]
        var descriptions: [UInt8] = []
        var childIndex: [ChildKey: Int32] = [:]
        var kinds = [Kind(.container(""))]
        var kindIndex: [OSCQueryNode: Int32] = [OSCQueryNode.container(""): 0]

        mutating func declare(_ node: OSCQueryNode) {
            var index: Int32 = 0
            for part in node.fullPath.split(separator: "/", omittingEmptySubsequences: true) {
                let key = ChildKey(parent: index, name: String(part))
                if let child = childIndex[key] {
                    index = child
                } else {
                    let child = Int32(entries.count)
                    entries.append(Entry(name: key.name, parent: index, firstChild: 0, childCount: 0, kind: 0,
                                         valueKey: -1))
                    childIndex[key] = child
                    index = child
                }
            }
            var attributes = node
            attributes.fullPath = ""
            attributes.description = nil
            attributes.valueKey = nil
            let kind: Int32
            if let known = kindIndex[attributes] {
                kind = known
            } else {
                kind = Int32(kinds.count)
                kinds.append(Kind(attributes))
                kindIndex[attributes] = kind
            }
            entries[Int(index)].kind = kind
            entries[Int(index)].valueKey = node.valueKey.map(Int32.init) ?? -1
            if let description = node.description {
                entries[Int(index)].descriptionStart = Int32(descriptions.count)
                entries[Int(index)].descriptionLength = Int32(description.utf8.count)
                descriptions.append(contentsOf: description.utf8)
            }
        }

        /// The entries breadth first, each node's children contiguous and
        /// in address order; parents and children renumbered to match.
        func laidOut() -> ([Entry], [Kind]) {
            // Children of each draft node, by counting: no array per node.
            var childStart = [Int](repeating: 0, count: entries.count + 1)
            for entry in entries.dropFirst() { childStart[Int(entry.parent) + 1] += 1 }
            for i in 0..<entries.count { childStart[i + 1] += childStart[i] }
            var fill = childStart
            var children = [Int32](repeating: 0, count: entries.count)
            for (i, entry) in entries.enumerated().dropFirst() {
                children[fill[Int(entry.parent)]] = Int32(i)
                fill[Int(entry.parent)] += 1
            }
            var order: [Int32] = [0]            // draft indices, breadth first
            var newIndex = [Int32](repeating: 0, count: entries.count)
            order.reserveCapacity(entries.count)
            var laid: [Entry] = []
            laid.reserveCapacity(entries.count)
            var position = 0
            while position < order.count {
                let draft = Int(order[position])
                var entry = entries[draft]
                let mine = children[childStart[draft]..<childStart[draft + 1]]
                    .map { (index: $0, key: OrderKey(entries[Int($0)].name)) }
                    .sorted { $0.key < $1.key }
                entry.firstChild = Int32(order.count)
                entry.childCount = Int32(mine.count)
                entry.parent = draft == 0 ? -1 : newIndex[Int(entry.parent)]
                for child in mine {
                    newIndex[Int(child.index)] = Int32(order.count)
                    order.append(child.index)
                }
                laid.append(entry)
                position += 1
            }
            return (laid, kinds)
        }
    }
}
