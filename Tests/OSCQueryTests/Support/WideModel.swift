import OSC
import OSCQuery

/// A namespace too large for one chunk: `/grid/i/j` for i, j in 1…side,
/// each with its value i + j/1000 and a `/db` child.
final class WideModel: OSCQueryModel {
    let side: Int
    let namespace: OSCQueryNamespace

    init(side: Int) {
        self.side = side
        var nodes: [OSCQueryNode] = []
        for i in 1...side {
            for j in 1...side {
                let key = i * 10_000 + j
                nodes.append(OSCQueryNode(fullPath: "/grid/\(i)/\(j)", description: "Point \(i) \(j)",
                                          typeTags: "f", access: .readWrite, valueKey: key,
                                          range: [.between(0, 4)], unit: ["gain.linear"], clipMode: [.both]))
                nodes.append(OSCQueryNode(fullPath: "/grid/\(i)/\(j)/db", typeTags: "f", access: .readWrite,
                                          range: [.between(-90, 12)], unit: ["gain.db"], clipMode: [.both]))
            }
        }
        namespace = OSCQueryNamespace(nodes)
    }

    func values() -> any OSCQueryValues { Values() }

    struct Values: OSCQueryValues {
        func arguments(_ key: Int) -> [OSCArgument]? {
            [.float(Float(key / 10_000) + Float(key % 10_000) / 1000)]
        }
    }

}
