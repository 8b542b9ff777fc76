import OSC
import OSCQuery
import RigControl

/// The rig's address space as OSCQuery serves it: built from the
/// controller's descriptions at every request, so values are current; access
/// by the same policy as OSC.
struct RigNamespace: OSCQueryModel {
    let controller: Controller
    let policy: AccessPolicy

    func namespace() -> OSCQueryNode {
        var root = OSCQueryNode.container("/", description: "Crosspoint: a live matrix mixer")
        for parameter in controller.parameterDescriptions() {
            let arguments = parameter.typeTags.count
            root.insert(OSCQueryNode(
                fullPath: parameter.address,
                description: parameter.description,
                typeTags: parameter.typeTags,
                access: parameter.readable ? .readWrite : .write,
                value: parameter.value,
                range: arguments == 0 ? nil : parameter.range.map { range in
                    range.map { OSCQueryRange.between(Float($0.lowerBound), Float($0.upperBound)) }
                },
                unit: arguments == 0 ? nil : Array(repeating: parameter.unit, count: arguments),
                clipMode: arguments == 0 ? nil : parameter.range.map { $0 == nil ? nil : .both }))
        }
        return root
    }

    func access(for host: String) -> OSCQueryClientAccess {
        switch policy.access(forHost: host) {
        case .full: .full
        case .readOnly: .readOnly
        case .denied: .denied
        }
    }
}
