import OSC
import OSCQuery
import Presets
import RigControl

/// The rig's address space as OSCQuery serves it: built once, at start,
/// from the controller's descriptions (which come from the catalogue);
/// values read from a copy of the rig state taken for each answer.
struct RigNamespace: OSCQueryModel {
    let controller: Controller
    let namespace: OSCQueryNamespace
    /// The parameter each value key stands for.
    private let targets: [Target]

    init(controller: Controller) {
        self.controller = controller
        var targets: [Target] = []
        namespace = OSCQueryNamespace { declare in
            declare(OSCQueryNode.container("/", description: "Crosspoint: a live matrix mixer"))
            controller.describeAddresses { parameter in
                var node = Self.node(parameter.signature, address: parameter.address,
                                     clipped: parameter.access == .readWrite)
                node.description = parameter.description
                node.access = switch parameter.access {
                case .readWrite: .readWrite
                case .readOnly: .read
                case .none: OSCQueryNode.Access.none
                }
                node.overloads = parameter.overloads.map { Self.node($0, address: "", clipped: false) }
                if let target = parameter.target {
                    node.valueKey = targets.count
                    targets.append(target)
                }
                declare(node)
            }
        }
        self.targets = targets
    }

    /// A signature's attributes: one entry per type tag, integer ranges for
    /// `i`; `clipped`: values are clamped to their range (parameters).
    private static func node(_ signature: ParameterDescription.Signature, address: String,
                             clipped: Bool) -> OSCQueryNode {
        let tags = Array(signature.typeTags)
        let range: [OSCQueryRange?] = zip(tags, signature.range).map { tag, range in
            range.map { tag == "i" ? .betweenIntegers(Int32($0.lowerBound), Int32($0.upperBound))
                                   : .between(Float($0.lowerBound), Float($0.upperBound)) }
        }
        let any = !tags.isEmpty
        return OSCQueryNode(fullPath: address, description: signature.description, typeTags: signature.typeTags,
                            range: any ? range : nil, unit: any ? signature.unit : nil,
                            clipMode: any && clipped ? range.map { $0 == nil ? nil : .both } : nil)
    }

    func values() -> any OSCQueryValues {
        Values(controller: controller, state: controller.stateNow(), targets: targets)
    }

    /// The values at one moment.
    private struct Values: OSCQueryValues {
        let controller: Controller
        let state: RigState
        let targets: [Target]

        func arguments(_ key: Int) -> [OSCArgument]? {
            targets.indices.contains(key) ? controller.value(targets[key], in: state) : nil
        }
    }
}
