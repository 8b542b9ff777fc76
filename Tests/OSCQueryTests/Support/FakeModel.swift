import OSC
import OSCQuery
import Synchronization

/// A small mixer-like namespace with values the tests change, and access
/// rules they set per host.
final class FakeModel: OSCQueryModel {
    private let volumes = Mutex<[Int: Float]>([1: 0.5, 2: 1.0])
    private let rules = Mutex<[String: OSCQueryClientAccess]>([:])

    func setVolume(_ source: Int, _ value: Float) { volumes.withLock { $0[source] = value } }
    func setAccess(_ access: OSCQueryClientAccess, for host: String) { rules.withLock { $0[host] = access } }

    func access(for host: String) -> OSCQueryClientAccess {
        rules.withLock { $0[host] } ?? .full
    }

    func namespace() -> OSCQueryNode {
        var root = OSCQueryNode.container("/", description: "Crosspoint test rig")
        for (source, volume) in volumes.withLock({ $0 }) {
            root.insert(OSCQueryNode(
                fullPath: "/source/\(source)/volume", description: "Source \(source) gain",
                typeTags: "f", access: .readWrite, value: [.float(volume)],
                range: [.between(0, 2)], unit: ["gain"], clipMode: [.both]))
            root.insert(OSCQueryNode(
                fullPath: "/source/\(source)/name", typeTags: "s", access: .read,
                value: [.string("in \(source)")]))
        }
        root.insert(OSCQueryNode(
            fullPath: "/matrix/10/1/gain", typeTags: "f", access: .readWrite, value: [.float(0.1)]))
        root.insert(OSCQueryNode(
            fullPath: "/matrix/2/1/gain", typeTags: "f", access: .readWrite, value: [.float(0)]))
        root.insert(OSCQueryNode(
            fullPath: "/output/1/pan", description: "Pan of output 1, \"quoted\"",
            typeTags: "fi", access: .readWrite, value: [.float(-0.25), .int32(3)],
            range: [.between(-1, 1), nil], unit: ["position", nil], clipMode: [.both, nil]))
        root.insert(OSCQueryNode(
            fullPath: "/output/1/mode", typeTags: "s", access: .readWrite, value: [.string("stereo")],
            range: [.oneOf([.string("mono"), .string("stereo")])]))
        root.insert(OSCQueryNode(
            fullPath: "/preset/recall", description: "Recall a preset by name",
            typeTags: "s", access: .write, value: [.string("secret")]))
        root.insert(OSCQueryNode(fullPath: "/preset/undo", typeTags: "", access: OSCQueryNode.Access.none))
        root.insert(OSCQueryNode(fullPath: "/status/running", typeTags: "T", access: .read,
                                 value: [.bool(true)]))
        return root
    }
}
