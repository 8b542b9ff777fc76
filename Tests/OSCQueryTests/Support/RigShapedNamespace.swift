import OSCQuery

/// A namespace laid out like the rig's, at any size: per source nine
/// leaves and `/safe/source/N`, per output five and `/safe/output/M`,
/// `/safe/mix/M`, and every crosspoint `/matrix/IN/OUT` a method with `db`
/// and `fader` children. At 256x256 it has about as many nodes as the
/// rig's own (201,507, BENCHMARKS.md "Discovery").
enum RigShapedNamespace {
    /// `inputs` and `outputs` at least 1.
    static func make(inputs: Int, outputs: Int) -> OSCQueryNamespace {
        OSCQueryNamespace { declare in
            func level(_ path: String) {
                declare(OSCQueryNode(fullPath: path, description: "Level", typeTags: "f", access: .readWrite,
                                     valueKey: 0, range: [.between(0, 4)], unit: ["gain.linear"], clipMode: [.both]))
                declare(OSCQueryNode(fullPath: path + "/db", typeTags: "f", access: .readWrite, valueKey: 0,
                                     range: [.between(-90, 12)], unit: ["gain.db"], clipMode: [.both]))
                declare(OSCQueryNode(fullPath: path + "/fader", typeTags: "f", access: .readWrite, valueKey: 0,
                                     range: [.between(0, 1)], unit: ["none"], clipMode: [.both]))
            }
            func leaves(_ strip: String, _ names: [String]) {
                for name in names {
                    declare(OSCQueryNode(fullPath: "\(strip)/\(name)", description: "\(strip) \(name)", typeTags: "f",
                                         access: .readWrite, valueKey: 0))
                }
            }
            declare(.container("/", description: "A rig-shaped namespace"))
            declare(OSCQueryNode(fullPath: "/ping", typeTags: "", access: OSCQueryNode.Access.none))
            level("/master/volume")
            declare(OSCQueryNode(fullPath: "/matrix/map", typeTags: String(repeating: "i", count: outputs),
                                 access: .readWrite, valueKey: 0))
            for input in 1...inputs {
                leaves("/source/\(input)", ["volume", "db", "fader", "pan", "mute", "solo", "invert", "name", "link"])
                declare(OSCQueryNode(fullPath: "/safe/source/\(input)", typeTags: "i", access: .readWrite, valueKey: 0))
                for output in 1...outputs { level("/matrix/\(input)/\(output)") }
            }
            for output in 1...outputs {
                leaves("/output/\(output)", ["volume", "db", "fader", "mute", "delay"])
                for safe in ["output", "mix"] {
                    declare(OSCQueryNode(fullPath: "/safe/\(safe)/\(output)", typeTags: "i", access: .readWrite,
                                         valueKey: 0))
                }
            }
        }
    }
}
