import JSON
import Catalogue
import SceneModel

/// Memberships in files (docs/presets.md): each source's memberships of a
/// kind of group as a list of group numbers in its own object, under the
/// membership kind's field (`"dca": [1, 3], "mutegroup": [2]`), for the
/// kinds of group the scene has; a talkback's destinations likewise
/// (`"output": [3, 5]`, the state file only). The groups themselves are
/// numbered kinds like any other (`channels.dcas`, a list `dcas`).
extension PresetCoding {
    /// Strip n's memberships (of `memberships`, its owner's that the
    /// document holds) from its object: a list of group numbers per field.
    static func readMemberships(_ memberships: [Catalogue.Membership], _ object: JSONObject, at path: String, owner n: Int,
                                into scene: inout Scene, reader: FieldReader, catalogue: Catalogue) throws(FileError) {
        for membership in memberships {
            let (parameter, field) = (catalogue.parameters[membership.parameter], membership.field)
            guard let list = object[field] else { continue }
            let count = membership.group.count(scene)
            let at = "\(path).\(field)"
            let read = try reader.field { () throws(FileError) -> [Int] in
                var groups: [Int] = []
                for (i, value) in try reader.array(list, at: at, maxCount: max(Groups.most, count)).enumerated() {
                    guard count > 0 else { throw reader.error(at, "the file has no \(membership.group.plural)") }
                    groups.append(try reader.integer(value, at: "\(at)[\(i)]", in: 1...count))
                }
                return groups
            }
            guard let read else { continue }
            for g in stride(from: 1, through: count, by: 1) {
                parameter.set(&scene, membership.kind.place(n, g), .toggle(read.contains(g)))
            }
        }
    }

    /// Strip n's membership fields (of `memberships`), for groups the scene has.
    static func writeMemberships(_ memberships: [Catalogue.Membership], of scene: Scene, owner n: Int,
                                 catalogue: Catalogue) -> [(String, String)] {
        memberships.compactMap { membership in
            let count = membership.group.count(scene)
            guard count > 0 else { return nil }
            let parameter = catalogue.parameters[membership.parameter]
            let groups = stride(from: 1, through: count, by: 1).filter { g in
                parameter.get(scene, membership.kind.place(n, g)).isOn
            }
            return (membership.field, JSONWriter.numbers(groups))
        }
    }
}
