/// What changed between two namespaces, as OSCQuery clients are told it
/// (`PATH_REMOVED` and `PATH_ADDED`): only the top-most node of each
/// subtree that went or came. A node is added when its path is in the new
/// namespace and not the old, and its parent is in both; removed likewise.
/// Growing a rig from 8 to 9 sources adds `/source/9`, not also
/// `/source/9/volume`. A node at the same path whose attributes changed
/// (its type, range, description) is neither.
///
/// Found by walking the two trees side by side, each node's children
/// merged in address order: one step per node the two share, and one per
/// path announced; no set of paths is built. Both lists are in namespace
/// order: depth first, children in address order, as `GET /` writes them.
public struct OSCQueryNamespaceChange: Sendable, Equatable {
    /// The removed paths, top-most only, in the old namespace's order.
    public let removed: [String]
    /// The added paths, top-most only, in the new namespace's order.
    public let added: [String]

    /// Nothing was added or removed.
    public var isEmpty: Bool { removed.isEmpty && added.isEmpty }

    /// The change from `old` to `new`. Both have the root `/`, so the root
    /// is never added or removed.
    public init(from old: OSCQueryNamespace, to new: OSCQueryNamespace) {
        var removed: [String] = []
        var added: [String] = []
        guard old !== new else {
            self.removed = removed
            self.added = added
            return
        }
        // The pairs of nodes at one path whose children are being merged,
        // innermost last; `next` is where each side's merge has got to.
        var open = [Merge(old: old.entries[0].children, new: new.entries[0].children)]
        while var merge = open.popLast() {
            guard let next = merge.step(old, new) else { continue }
            open.append(merge)
            switch next {
            case .both(let oldChild, let newChild):
                // The same path in both: its children are merged next, before
                // the siblings that follow it (depth first).
                open.append(Merge(old: old.entries[oldChild].children, new: new.entries[newChild].children))
            case .onlyOld(let oldChild):
                removed.append(old.path(of: OSCQueryNamespace.Node(index: oldChild)))
            case .onlyNew(let newChild):
                added.append(new.path(of: OSCQueryNamespace.Node(index: newChild)))
            }
        }
        self.removed = removed
        self.added = added
    }

    /// The text frames that tell a WebSocket client: every `PATH_REMOVED`,
    /// then every `PATH_ADDED`, one path each, in that order.
    var commands: [OSCQueryCommand] {
        removed.map { OSCQueryCommand(kind: .pathRemoved, data: $0) }
            + added.map { OSCQueryCommand(kind: .pathAdded, data: $0) }
    }

    /// The merge of one node's children in the old namespace with the same
    /// node's children in the new (both contiguous, in address order).
    private struct Merge {
        enum Child {
            /// A name in both: the old node's index and the new one's.
            case both(Int, Int)
            case onlyOld(Int)
            case onlyNew(Int)
        }

        var old: Range<Int>
        var new: Range<Int>

        /// The next child in address order; nil when both sides are done.
        mutating func step(_ oldSpace: OSCQueryNamespace, _ newSpace: OSCQueryNamespace) -> Child? {
            switch (old.first, new.first) {
            case (nil, nil):
                return nil
            case (let oldChild?, nil):
                old.removeFirst()
                return .onlyOld(oldChild)
            case (nil, let newChild?):
                new.removeFirst()
                return .onlyNew(newChild)
            case let (oldChild?, newChild?):
                let oldName = oldSpace.entries[oldChild].name
                let newName = newSpace.entries[newChild].name
                // Nearly every name is in both: one string comparison.
                if oldName == newName {
                    old.removeFirst()
                    new.removeFirst()
                    return .both(oldChild, newChild)
                }
                if OSCQueryNamespace.OrderKey(oldName) < OSCQueryNamespace.OrderKey(newName) {
                    old.removeFirst()
                    return .onlyOld(oldChild)
                }
                new.removeFirst()
                return .onlyNew(newChild)
            }
        }
    }
}
