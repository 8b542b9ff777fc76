import Access
import OSC
import OSCQuery
import Synchronization

/// A small mixer-like namespace with values the tests change, and access
/// rules they set per host.
final class FakeModel: OSCQueryModel {
    /// Sources 1 and 2 at 0.5 and 1.0; any other at 0.75.
    private let volumes: Mutex<[Int: Float]>
    /// Who is let in: every host, until a test says otherwise of one.
    let door = AccessDoor(FakeModel.policy([:]))
    private let rules = Mutex<[String: AccessPolicy.Access]>([:])

    func setVolume(_ source: Int, _ value: Float) { volumes.withLock { $0[source] = value } }

    /// One host's access from now on (the others let in fully, unless a host is denied).
    func setAccess(_ access: AccessPolicy.Access, for host: String) {
        let rules = rules.withLock { $0[host] = access; return $0 }
        door.replace(with: Self.policy(rules))
    }

    private static func policy(_ rules: [String: AccessPolicy.Access]) -> AccessPolicy {
        let hosts = { (wanted: AccessPolicy.Access) in
            rules.filter { $0.value == wanted }.keys.compactMap { AccessPolicy.Network($0) }
        }
        let everyone = rules.values.contains(.denied) ? [] : ["0.0.0.0/0", "::/0"].compactMap(AccessPolicy.Network.init)
        return AccessPolicy(allowed: everyone + hosts(.full), readOnly: hosts(.readOnly))
    }

    /// Value keys: 1…9 the sources' volumes, 11…19 their names; the others
    /// fixed values.
    let namespace: OSCQueryNamespace

    /// A rig with `sources` (each 1…9): `/source/N/volume` and `/name`.
    init(sources: [Int] = [1, 2]) {
        let first: [Int: Float] = [1: 0.5, 2: 1.0]
        volumes = Mutex(Dictionary(sources.map { ($0, first[$0] ?? 0.75) }, uniquingKeysWith: { a, _ in a }))
        namespace = Self.namespace(sources: sources)
    }

    private static func namespace(sources: [Int]) -> OSCQueryNamespace {
        var nodes = [OSCQueryNode.container("/", description: "Crosspoint test rig")]
        for source in sources {
            nodes.append(OSCQueryNode(
                fullPath: "/source/\(source)/volume", description: "Source \(source) gain",
                typeTags: "f", access: .readWrite, valueKey: source,
                range: [.between(0, 2)], unit: ["gain.linear"], clipMode: [.both]))
            nodes.append(OSCQueryNode(
                fullPath: "/source/\(source)/name", typeTags: "s", access: .read, valueKey: 10 + source))
        }
        nodes.append(OSCQueryNode(fullPath: "/matrix/10/1/gain", typeTags: "f", access: .readWrite, valueKey: 20))
        nodes.append(OSCQueryNode(fullPath: "/matrix/2/1/gain", typeTags: "f", access: .readWrite, valueKey: 21))
        nodes.append(OSCQueryNode(
            fullPath: "/output/1/pan", description: "Pan of output 1, \"quoted\"",
            typeTags: "fi", access: .readWrite, valueKey: 30,
            range: [.between(-1, 1), nil], unit: ["none", nil], clipMode: [.both, nil]))
        nodes.append(OSCQueryNode(
            fullPath: "/output/1/mode", typeTags: "s", access: .readWrite, valueKey: 31,
            range: [.oneOf([.string("mono"), .string("stereo")])]))
        nodes.append(OSCQueryNode(
            fullPath: "/preset/recall", description: "Recall a preset by name",
            typeTags: "s", access: .write, valueKey: 40,
            overloads: [OSCQueryNode(fullPath: "", description: "With a fade", typeTags: "sf",
                                     range: [nil, .between(0, 60)], unit: [nil, "time.second"])]))
        nodes.append(OSCQueryNode(fullPath: "/preset/undo", typeTags: "", access: OSCQueryNode.Access.none))
        nodes.append(OSCQueryNode(fullPath: "/status/running", typeTags: "T", access: .read, valueKey: 50))
        return OSCQueryNamespace(nodes)
    }

    func values() -> any OSCQueryValues {
        Values(volumes: volumes.withLock { $0 })
    }

    struct Values: OSCQueryValues {
        let volumes: [Int: Float]

        func arguments(_ key: Int) -> [OSCArgument]? {
            switch key {
            case 1...9: volumes[key].map { [.float($0)] }
            case 11...19: [.string("in \(key - 10)")]
            case 20: [.float(0.1)]
            case 21: [.float(0)]
            case 30: [.float(-0.25), .int32(3)]
            case 31: [.string("stereo")]
            case 40: [.string("secret")]
            case 50: [.bool(true)]
            default: nil
            }
        }
    }
}
