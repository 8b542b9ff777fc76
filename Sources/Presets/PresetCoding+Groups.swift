import JSON
import Catalogue
import SceneModel

/// DCAs and mute groups in files (docs/presets.md): their count in
/// `channels` (`"dcas": 8, "mutegroups": 8`), one object per group in
/// `dcas` and `mutegroups` (a field per catalogue parameter, as a strip),
/// and each source's memberships as lists of group numbers in its own
/// object (`"dca": [1, 3], "mutegroup": [2]`). A scene without groups
/// writes none of these, and a file without them reads as no groups.
extension PresetCoding {
    /// The membership strip, the scene's count of its groups, and its field.
    static func memberships(of scene: Scene) -> [(strip: Parameter.Strip, count: Int, field: String)] {
        Catalogue.membershipFields.map { strip, field in
            (strip, strip == .dcaMember ? scene.dcas.count : scene.muteGroups.count, field)
        }
    }

    /// Source n's memberships from its object: a list of group numbers per field.
    static func readMemberships(_ object: JSONObject, at path: String, source n: Int, into scene: inout Scene,
                                reader: FieldReader) throws(FileError) {
        for (strip, count, field) in memberships(of: scene) {
            guard let list = object[field] else { continue }
            let at = "\(path).\(field)"
            let read = try reader.field { () throws(FileError) -> Groups in
                var groups = Groups()
                for (i, value) in try reader.array(list, at: at, maxCount: Groups.most).enumerated() {
                    guard count > 0 else { throw reader.error(at, "the file has no \(field == "dca" ? "DCAs" : "mute groups")") }
                    groups.insert(try reader.integer(value, at: "\(at)[\(i)]", in: 1...count))
                }
                return groups
            }
            guard let groups = read else { continue }
            if strip == .dcaMember { scene.sources[n - 1].dcas = groups } else { scene.sources[n - 1].muteGroups = groups }
        }
    }

    /// Source n's membership fields, for groups the scene has.
    static func writeMemberships(of scene: Scene, source n: Int) -> [(String, String)] {
        memberships(of: scene).filter { $0.count > 0 }.map { strip, _, field in
            let groups = strip == .dcaMember ? scene.sources[n - 1].dcas : scene.sources[n - 1].muteGroups
            return (field, JSONWriter.numbers(groups.members))
        }
    }

    /// The groups' own objects: `dcas` and `mutegroups`, at most as many as `channels` says.
    static func decodeGroups(_ fields: JSONObject, reader: FieldReader, at prefix: String, into scene: inout Scene,
                             catalogue: Catalogue, document: Parameter.Document) throws(FileError) {
        func path(_ name: String) -> String { prefix.isEmpty ? name : "\(prefix).\(name)" }
        for (strip, field, count) in [(Parameter.Strip.dca, "dcas", scene.dcas.count),
                                      (.muteGroup, "mutegroups", scene.muteGroups.count)] {
            guard let list = fields[field],
                  let entries = try reader.field({ () throws(FileError) in try reader.array(list, at: path(field), maxCount: count) })
            else { continue }
            for (index, entry) in entries.enumerated() {
                let place: Parameter.Place = strip == .dca ? .dca(index + 1) : .muteGroup(index + 1)
                try reader.field { () throws(FileError) in
                    try readStrip(strip, place, entry, at: path("\(field)[\(index)]"), into: &scene, reader: reader,
                                  catalogue: catalogue, document: document)
                }
            }
        }
    }

    static func encodeGroups(_ scene: Scene, into w: inout JSONWriter, catalogue: Catalogue, document: Parameter.Document) {
        if !scene.dcas.isEmpty {
            w.list("dcas", scene.dcas.indices.map {
                writeStrip(.dca, .dca($0 + 1), of: scene, catalogue: catalogue, document: document)
            })
        }
        if !scene.muteGroups.isEmpty {
            w.list("mutegroups", scene.muteGroups.indices.map {
                writeStrip(.muteGroup, .muteGroup($0 + 1), of: scene, catalogue: catalogue, document: document)
            })
        }
    }
}
