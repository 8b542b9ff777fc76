import JSON
import OSC
import SystemSupport

/// Answers written from the namespace and a reading of the values: a node
/// and everything below it, a chunk at a time, or one attribute.
extension OSCQueryNamespace {
    /// `{"ATTRIBUTE": …}` for a node, or `{}` when it has no such
    /// attribute, as `GET /path?ATTRIBUTE` serves it; nil for `CONTENTS`,
    /// which is streamed (`JSONStream(contentsOf:)`).
    func json(for attribute: OSCQueryAttribute, of node: Node, values: any OSCQueryValues) -> String? {
        let entry = entries[node.index]
        let kind = kinds[Int(entry.kind)]
        var out = JSONBytes()
        out.beginObject()
        switch attribute {
        case .contents:
            return nil
        case .fullPath:
            out.key(attribute.rawValue); out.string(path(of: node))
        case .description:
            if let description = description(of: node.index) {
                out.key(attribute.rawValue); out.quoted(utf8: description)
            }
        case .value:
            writeValue(of: entry, kind: kind, values: values, to: &out)
        default:
            kind.attributes.writeAttribute(attribute, to: &out)
        }
        out.endObject()
        return out.text
    }

    func writeValue(of entry: Entry, kind: Kind, values: any OSCQueryValues, to out: inout JSONBytes) {
        guard kind.isReadable, entry.valueKey >= 0, let value = values.arguments(Int(entry.valueKey)) else { return }
        out.key(OSCQueryAttribute.value.rawValue)
        out.beginArray()
        for argument in value { out.argument(argument) }
        out.endArray()
    }

    /// The JSON of a node and everything below it, written a chunk at a
    /// time, so that a 40 MB namespace is never whole in memory and the
    /// first bytes leave at once.
    struct JSONStream: Sendable {
        let namespace: OSCQueryNamespace
        let values: any OSCQueryValues
        private var out = JSONBytes()
        /// The full path of the node on top of `open`.
        private var path: [UInt8]
        /// The containers being written: their index, the next child to
        /// write, and the length of `path` at their level.
        private var open: [(index: Int, next: Int, pathLength: Int)] = []
        /// Whether only `{"CONTENTS": …}` of the first node is written.
        private let contentsOnly: Bool
        private var started = false

        /// The stream of `node` and all below it, as `GET /path` serves it.
        init(_ namespace: OSCQueryNamespace, node: Node, values: any OSCQueryValues) {
            self.init(namespace, node: node, values: values, contentsOnly: false)
        }

        /// The stream of `{"CONTENTS": {…}}` of `node`, as `GET /path?CONTENTS`
        /// serves it: `{}` for a method without children.
        init(_ namespace: OSCQueryNamespace, contentsOf node: Node, values: any OSCQueryValues) {
            self.init(namespace, node: node, values: values, contentsOnly: true)
        }

        private init(_ namespace: OSCQueryNamespace, node: Node, values: any OSCQueryValues, contentsOnly: Bool) {
            self.namespace = namespace
            self.values = values
            self.contentsOnly = contentsOnly
            path = namespace.pathBytes(of: node.index)
            open = [(node.index, -1, path.count)]
        }

        /// The next chunk, at least `size` bytes unless it is the last;
        /// nil once everything is written.
        mutating func next(size: Int = 65_536) -> [UInt8]? {
            if !started {
                started = true
                let first = open.removeLast().index
                if contentsOnly {
                    out.beginObject()
                    if namespace.isContainer(first) {
                        out.key(OSCQueryAttribute.contents.rawValue)
                        out.beginObject()
                        open.append((first, Int(namespace.entries[first].firstChild), path.count))
                    } else {
                        out.endObject()
                    }
                } else {
                    begin(first)
                }
            }
            guard !open.isEmpty || !out.bytes.isEmpty else { return nil }
            while out.bytes.count < size, let top = open.last {
                let entry = namespace.entries[top.index]
                if top.next < Int(entry.firstChild + entry.childCount) {
                    open[open.count - 1].next += 1
                    let child = namespace.entries[top.next]
                    path.removeSubrange(top.pathLength...)
                    if path != [UInt8(ascii: "/")] { path.append(UInt8(ascii: "/")) }
                    path.append(contentsOf: child.name.utf8)
                    out.key(child.name)
                    begin(top.next)
                } else {
                    // CONTENTS, then the node (or the answer's object).
                    open.removeLast()
                    out.endObject()
                    out.endObject()
                }
            }
            return out.take()
        }

        /// Writes a node's members; a container is left open for its children.
        private mutating func begin(_ index: Int) {
            let entry = namespace.entries[index]
            let kind = namespace.kinds[Int(entry.kind)]
            out.beginObject()
            out.key(OSCQueryAttribute.fullPath.rawValue)
            out.quoted(utf8: path[...])
            if let description = namespace.description(of: index) {
                out.key(OSCQueryAttribute.description.rawValue)
                out.quoted(utf8: description)
            }
            out.raw(kind.membersBeforeValue)
            namespace.writeValue(of: entry, kind: kind, values: values, to: &out)
            out.raw(kind.membersAfterValue)
            if namespace.isContainer(index) {
                out.key(OSCQueryAttribute.contents.rawValue)
                out.beginObject()
                open.append((index, Int(entry.firstChild), path.count))
            } else {
                out.endObject()
            }
        }
    }
}
