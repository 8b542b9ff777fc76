import JSON
import Catalogue
import FoundationEssentials
import MixCore
import SceneModel

/// The preset file format, version 1: strict to read (every unknown field,
/// wrong type and out-of-range value is an error naming its field), and
/// written by hand in a stable, diff-friendly layout. See docs/presets.md.
public enum PresetCoding {
    public static let format = "crosspoint-preset"
    public static let version = 1

    // MARK: - Reading

    /// Reads a preset document. `file` names it in errors.
    public static func decode(_ data: Data, file: String, catalogue: Catalogue = Catalogue()) throws(FileError) -> Preset {
        try FieldReader.read(data, file: file) { (root) throws(FileError) -> Preset in
            let reader = FieldReader(file: file)
            let fields = try reader.object(root, at: "", allowed: FieldNames.preset + FieldNames.scene(catalogue))
            try checkHeader(fields, reader: reader, format: format)
            var name = "", notes: String?, fade: Double?
            if let v = fields["name"] { name = try reader.string(v, at: "name", maxLength: 64) }
            if let v = fields["notes"] { notes = try reader.string(v, at: "notes", maxLength: 4096) }
            if let v = fields["fade"] { fade = try reader.number(v, at: "fade", in: 0...3600) }
            let scene = try decodeScene(fields, reader: reader, at: "", catalogue: catalogue, document: .preset)
            return Preset(name: name, notes: notes, fade: fade, scene: scene)
        }
    }

    static func checkHeader(_ fields: JSONObject, reader: FieldReader, format: String) throws(FileError) {
        guard let formatValue = fields["format"] else { throw reader.error("format", "missing; expected \"\(format)\"") }
        guard try reader.string(formatValue, at: "format", maxLength: 64) == format else {
            throw reader.error("format", "expected \"\(format)\"")
        }
        try reader.checkVersion(fields, reads: version)
    }

    /// The scene part of a document: `channels`, `sources`, `crosspoints`,
    /// `map`, `outputs` and `master`, under `prefix`.
    static func decodeScene(_ fields: JSONObject, reader: FieldReader, at prefix: String,
                            catalogue: Catalogue, document: Parameter.Document) throws(FileError) -> Scene {
        func path(_ name: String) -> String { prefix.isEmpty ? name : "\(prefix).\(name)" }
        guard let channelsValue = fields["channels"] else { throw reader.error(path("channels"), "missing") }
        let channels = try reader.object(channelsValue, at: path("channels"), allowed: FieldNames.channels(catalogue))
        // Each numbered kind's count; a kind that may be absent (groups, in a
        // file from before them) is none when the file says nothing.
        var counts: [Parameter.Strip: Int] = [:]
        for kind in catalogue.kinds {
            guard let field = kind.countField else { continue }
            guard let value = channels[field] else {
                guard kind.counts.lowerBound == 0 else { throw reader.error(path("channels.\(field)"), "missing") }
                continue
            }
            counts[kind.strip] = try reader.integer(value, at: path("channels.\(field)"), in: kind.counts)
        }
        let (inputs, outputs) = (counts[.source] ?? 1, counts[.output] ?? 1)
        var scene = catalogue.scene(counts)
        scene.crosspoints = CrosspointMatrix(inputs: inputs, outputs: outputs)

        // Each list, and each entry of a list, is a field of its own: in a
        // lenient reading (the state file) a bad one is skipped, not the scene.
        func list(_ name: String, maxCount: Int) throws(FileError) -> JSONArray? {
            guard let value = fields[name] else { return nil }
            return try reader.field { () throws(FileError) in try reader.array(value, at: path(name), maxCount: maxCount) }
        }
        if let entries = try list("map", maxCount: outputs) {
            for (index, entry) in entries.enumerated() {
                let input = try reader.field { () throws(FileError) in try reader.integer(entry, at: path("map[\(index)]"), in: 0...inputs) }
                if let input, input > 0 { scene.crosspoints[input, index + 1] = 1 }
            }
        }
        let names = FieldNames.crosspoint
        if let entries = try list("crosspoints", maxCount: inputs * outputs) {
            for (index, entry) in entries.enumerated() {
                try reader.field { () throws(FileError) in
                    func at(_ field: String = "") -> String { path("crosspoints[\(index)]") + field }
                    var inValue: JSONValue?, outValue: JSONValue?, volumeValue: JSONValue?
                    try reader.fields(entry, at: at(), allowed: names) { position, value in
                        switch position {
                        case 0: inValue = value
                        case 1: outValue = value
                        default: volumeValue = value
                        }
                    }
                    guard let inValue else { throw reader.error(at(".in"), "missing") }
                    guard let outValue else { throw reader.error(at(".out"), "missing") }
                    guard let volumeValue else { throw reader.error(at(".volume"), "missing") }
                    let input = try reader.integer(inValue, at: at(".in"), in: 1...inputs)
                    let output = try reader.integer(outValue, at: at(".out"), in: 1...outputs)
                    let gains = Parameter.Level.gains
                    scene.crosspoints[input, output] = Float(try reader.number(volumeValue, at: at(".volume"),
                                                                               in: Double(gains.lowerBound)...Double(gains.upperBound)))
                }
            }
        }
        for kind in catalogue.kinds {
            guard let name = kind.field, let value = fields[name] else { continue }
            if kind.shape == .single {
                try reader.field { () throws(FileError) in
                    try readStrip(kind.strip, kind.place(1, 0), value, at: path(name), into: &scene, reader: reader,
                                  catalogue: catalogue, document: document)
                }
                continue
            }
            guard let entries = try list(name, maxCount: kind.count(scene)) else { continue }
            for (index, entry) in entries.enumerated() {
                try reader.field { () throws(FileError) in
                    try readStrip(kind.strip, kind.place(index + 1, 0), entry, at: path("\(name)[\(index)]"), into: &scene,
                                  reader: reader, catalogue: catalogue, document: document)
                }
            }
        }
        return scene
    }

    /// One strip's object: a field per parameter of the catalogue's the
    /// document holds (a preset: the scene's; the state file: the rig's
    /// wiring too), by its name.
    static func readStrip(_ strip: Parameter.Strip, _ place: Parameter.Place, _ value: JSONValue, at path: String,
                          into scene: inout Scene, reader: FieldReader, catalogue: Catalogue,
                          document: Parameter.Document) throws(FileError) {
        let numbers = catalogue.numbers(of: strip, in: document)
        let memberships = catalogue.memberships(of: strip, in: document)
        let object = try reader.object(value, at: path, allowed: numbers.map { catalogue.parameters[$0].name }
                                       + memberships.map(\.field))
        try readMemberships(memberships, object, at: path, owner: place.channel, into: &scene, reader: reader,
                            catalogue: catalogue)
        for number in numbers {
            let parameter = catalogue.parameters[number]
            guard let field = object[parameter.name] else { continue }
            let at = "\(path).\(parameter.name)"
            let read = try reader.field { () throws(FileError) -> Parameter.Value in
                let read: Parameter.Value
                switch parameter.kind {
                case .level, .number:
                    // Files hold a level as linear gain: its own form's range.
                    let range = parameter.kind.range(.plain) ?? 0...0
                    read = .number(Float(try reader.number(field, at: at, in: Double(range.lowerBound)...Double(range.upperBound))))
                case .toggle: read = .toggle(try reader.bool(field, at: at))
                case .text(let maxLength): read = .text(try reader.string(field, at: at, maxLength: maxLength))
                }
                if let problem = parameter.check(read) { throw reader.error(at, problem) }
                return read
            }
            if let read { parameter.set(&scene, place, read) }
        }
    }

    /// One strip's object, on one line: every parameter of the catalogue's the document holds.
    static func writeStrip(_ strip: Parameter.Strip, _ place: Parameter.Place, of scene: Scene,
                           catalogue: Catalogue, document: Parameter.Document) -> String {
        let fields = catalogue.numbers(of: strip, in: document).map { number -> (String, String) in
            let parameter = catalogue.parameters[number]
            let value: String
            switch parameter.get(scene, place) {
            case .number(let number): value = JSONWriter.number(number)
            case .toggle(let on): value = "\(on)"
            case .text(let text): value = JSONWriter.quoted(text)
            }
            return (parameter.name, value)
        }
        let memberships = writeMemberships(catalogue.memberships(of: strip, in: document), of: scene, owner: place.channel,
                                           catalogue: catalogue)
        return JSONWriter.inline(fields + memberships)
    }

    /// The fields each object may have, made once (not per object).
    enum FieldNames {
        /// A preset's own fields; its scene's are `scene`'s.
        static let preset = ["format", "version", "name", "notes", "fade"]
        /// The fields of a scene in a file: `channels`, the map, and each
        /// kind's list or object.
        static func scene(_ catalogue: Catalogue) -> [String] {
            ["channels", "crosspoints", "map"] + catalogue.kinds.compactMap(\.field)
        }
        static func channels(_ catalogue: Catalogue) -> [String] { catalogue.kinds.compactMap(\.countField) }
        /// In this order: `decodeScene` reads them by position.
        static let crosspoint: [StaticString] = ["in", "out", "volume"]
    }

    // MARK: - Writing

    /// The document for a preset: every source and output listed, crosspoints
    /// sparsely (only those in use), one entry per line.
    public static func encode(_ preset: Preset, catalogue: Catalogue = Catalogue()) -> Data {
        var w = JSONWriter()
        w.open("{")
        w.field("format", JSONWriter.quoted(format))
        w.field("version", "\(version)")
        w.field("name", JSONWriter.quoted(preset.name))
        if let notes = preset.notes { w.field("notes", JSONWriter.quoted(notes)) }
        if let fade = preset.fade { w.field("fade", JSONWriter.number(fade)) }
        encodeScene(preset.scene, into: &w, catalogue: catalogue, document: .preset)
        w.close("}")
        return w.data
    }

    static func encodeScene(_ scene: Scene, into w: inout JSONWriter, catalogue: Catalogue, document: Parameter.Document) {
        // A kind only when the document holds something of it (a preset
        // nothing of the talkbacks nor the listen); inputs and outputs
        // always, another kind only when the scene has some.
        func held(_ kind: StripKind) -> Bool {
            let holds = !catalogue.numbers(of: kind.strip, in: document).isEmpty
                || !catalogue.memberships(of: kind.strip, in: document).isEmpty
            return holds && (kind.counts.lowerBound > 0 || kind.count(scene) > 0)
        }
        let channels = catalogue.kinds.compactMap { kind -> (String, String)? in
            guard let field = kind.countField, held(kind) else { return nil }
            return (field, "\(kind.count(scene))")
        }
        w.field("channels", JSONWriter.inline(channels))
        for kind in catalogue.kinds {
            switch kind.shape {
            case .numbered:
                guard let field = kind.field, held(kind) else { continue }
                w.list(field, catalogue.places(kind.strip, of: scene).map {
                    writeStrip(kind.strip, $0, of: scene, catalogue: catalogue, document: document)
                })
            case .single:
                guard let field = kind.field, held(kind) else { continue }
                w.field(field, writeStrip(kind.strip, kind.place(1, 0), of: scene, catalogue: catalogue, document: document))
            case .crosspoint:
                w.list("crosspoints", crosspoints(of: scene))
            case .membership:
                break
            }
        }
    }

    /// The crosspoints in use, one object each.
    static func crosspoints(of scene: Scene) -> [String] {
        var points: [String] = []
        for n in stride(from: 1, through: scene.inputCount, by: 1) {
            for m in stride(from: 1, through: scene.outputCount, by: 1) where scene.crosspoints[n, m] != 0 {
                points.append(JSONWriter.inline([("in", "\(n)"), ("out", "\(m)"),
                                                 ("volume", JSONWriter.number(scene.crosspoints[n, m]))]))
            }
        }
        return points
    }
}
