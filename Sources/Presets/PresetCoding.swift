import FoundationEssentials
import MixCore

/// The preset file format, version 1: strict to read (every unknown field,
/// wrong type and out-of-range value is an error naming its field), and
/// written by hand in a stable, diff-friendly layout. See docs/presets.md.
public enum PresetCoding {
    public static let format = "crosspoint-preset"
    public static let version = 1

    // MARK: - Reading

    /// Reads a preset document. `file` names it in errors.
    public static func decode(_ data: Data, file: String) throws(PresetError) -> Preset {
        try read(data, file: file) { (root) throws(PresetError) -> Preset in
            let reader = FieldReader(file: file)
            let fields = try reader.object(root, at: "", allowed: FieldNames.preset)
            try checkHeader(fields, reader: reader, format: format)
            var name = "", notes: String?, fade: Double?
            if let v = fields["name"] { name = try reader.string(v, at: "name", maxLength: 64) }
            if let v = fields["notes"] { notes = try reader.string(v, at: "notes", maxLength: 4096) }
            if let v = fields["fade"] { fade = try reader.number(v, at: "fade", in: 0...3600) }
            let scene = try decodeScene(fields, reader: reader, at: "")
            return Preset(name: name, notes: notes, fade: fade, scene: scene)
        }
    }

    /// Parses a document and reads it with `body` (see `JSONDocument.read`).
    static func read<R>(_ data: Data, file: String, _ body: (JSONValue) throws(PresetError) -> R) throws(PresetError) -> R {
        try JSONDocument.read(data, failure: { PresetError(file: file, "not valid JSON (\($0))") }, body)
    }

    static func checkHeader(_ fields: JSONObject, reader: FieldReader, format: String) throws(PresetError) {
        guard let formatValue = fields["format"] else { throw reader.error("format", "missing; expected \"\(format)\"") }
        guard try reader.string(formatValue, at: "format", maxLength: 64) == format else {
            throw reader.error("format", "expected \"\(format)\"")
        }
        guard let versionValue = fields["version"] else { throw reader.error("version", "missing; expected \(version)") }
        let found = try reader.integer(versionValue, at: "version", in: 0...Int(Int32.max))
        guard found == version else {
            throw reader.error("version", "version \(found) is not readable by this build, which reads version \(version)")
        }
    }

    /// The scene part of a document: `channels`, `sources`, `crosspoints`,
    /// `map`, `outputs` and `master`, under `prefix`.
    static func decodeScene(_ fields: JSONObject, reader: FieldReader, at prefix: String) throws(PresetError) -> Scene {
        func path(_ name: String) -> String { prefix.isEmpty ? name : "\(prefix).\(name)" }
        guard let channelsValue = fields["channels"] else { throw reader.error(path("channels"), "missing") }
        let channels = try reader.object(channelsValue, at: path("channels"), allowed: FieldNames.channels)
        guard let inputsValue = channels["inputs"] else { throw reader.error(path("channels.inputs"), "missing") }
        guard let outputsValue = channels["outputs"] else { throw reader.error(path("channels.outputs"), "missing") }
        let inputs = try reader.integer(inputsValue, at: path("channels.inputs"), in: 1...512)
        let outputs = try reader.integer(outputsValue, at: path("channels.outputs"), in: 1...512)
        var scene = Scene(inputs: inputs, outputs: outputs)
        scene.crosspoints = CrosspointMatrix(inputs: inputs, outputs: outputs)

        if let list = fields["sources"] {
            let entries = try reader.array(list, at: path("sources"), maxCount: inputs)
            for (index, entry) in entries.enumerated() {
                func at(_ field: String = "") -> String { path("sources[\(index)]") + field }
                let source = try reader.object(entry, at: at(), allowed: FieldNames.source)
                if let v = source["name"] { scene.sources[index].name = try reader.string(v, at: at(".name"), maxLength: 64) }
                if let v = source["volume"] { scene.sources[index].volume = Float(try reader.number(v, at: at(".volume"), in: 0...4)) }
                if let v = source["pan"] { scene.sources[index].pan = Float(try reader.number(v, at: at(".pan"), in: -1...1)) }
                if let v = source["mute"] { scene.sources[index].mute = try reader.bool(v, at: at(".mute")) }
                if let v = source["solo"] { scene.sources[index].solo = try reader.bool(v, at: at(".solo")) }
            }
        }
        if let list = fields["map"] {
            let entries = try reader.array(list, at: path("map"), maxCount: outputs)
            for (index, entry) in entries.enumerated() {
                let input = try reader.integer(entry, at: path("map[\(index)]"), in: 0...inputs)
                if input > 0 { scene.crosspoints[input, index + 1] = 1 }
            }
        }
        if let list = fields["crosspoints"] {
            let entries = try reader.array(list, at: path("crosspoints"), maxCount: inputs * outputs)
            let names = FieldNames.crosspoint
            for (index, entry) in entries.enumerated() {
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
                scene.crosspoints[input, output] = Float(try reader.number(volumeValue, at: at(".volume"), in: 0...4))
            }
        }
        if let list = fields["outputs"] {
            let entries = try reader.array(list, at: path("outputs"), maxCount: outputs)
            for (index, entry) in entries.enumerated() {
                func at(_ field: String = "") -> String { path("outputs[\(index)]") + field }
                let output = try reader.object(entry, at: at(), allowed: FieldNames.output)
                if let v = output["name"] { scene.outputs[index].name = try reader.string(v, at: at(".name"), maxLength: 64) }
                if let v = output["volume"] { scene.outputs[index].volume = Float(try reader.number(v, at: at(".volume"), in: 0...4)) }
                if let v = output["mute"] { scene.outputs[index].mute = try reader.bool(v, at: at(".mute")) }
            }
        }
        if let value = fields["master"] {
            let master = try reader.object(value, at: path("master"), allowed: FieldNames.master)
            if let v = master["volume"] { scene.master.volume = Float(try reader.number(v, at: path("master.volume"), in: 0...4)) }
            if let v = master["mute"] { scene.master.mute = try reader.bool(v, at: path("master.mute")) }
        }
        return scene
    }

    /// The fields each object may have, made once (not per object).
    enum FieldNames {
        static let preset: [StaticString] = [
            "format", "version", "name", "notes", "fade", "channels", "sources", "crosspoints", "map",
            "outputs", "master",
        ]
        static let channels: [StaticString] = ["inputs", "outputs"]
        static let source: [StaticString] = ["name", "volume", "pan", "mute", "solo"]
        /// In this order: `decodeScene` reads them by position.
        static let crosspoint: [StaticString] = ["in", "out", "volume"]
        static let output: [StaticString] = ["name", "volume", "mute"]
        static let master: [StaticString] = ["volume", "mute"]
    }

    // MARK: - Writing

    /// The document for a preset: every source and output listed, crosspoints
    /// sparsely (only those in use), one entry per line.
    public static func encode(_ preset: Preset) -> Data {
        var w = JSONWriter()
        w.open("{")
        w.field("format", JSONWriter.quoted(format))
        w.field("version", "\(version)")
        w.field("name", JSONWriter.quoted(preset.name))
        if let notes = preset.notes { w.field("notes", JSONWriter.quoted(notes)) }
        if let fade = preset.fade { w.field("fade", JSONWriter.number(fade)) }
        encodeScene(preset.scene, into: &w)
        w.close("}")
        return w.data
    }

    static func encodeScene(_ scene: Scene, into w: inout JSONWriter) {
        w.field("channels", "{ \"inputs\": \(scene.inputCount), \"outputs\": \(scene.outputCount) }")
        w.list("sources", scene.sources.map { s in
            "{ \"name\": \(JSONWriter.quoted(s.name)), \"volume\": \(JSONWriter.number(s.volume)), \"pan\": \(JSONWriter.number(s.pan)), \"mute\": \(s.mute), \"solo\": \(s.solo) }"
        })
        var points: [String] = []
        for n in stride(from: 1, through: scene.inputCount, by: 1) {
            for m in stride(from: 1, through: scene.outputCount, by: 1) where scene.crosspoints[n, m] != 0 {
                points.append("{ \"in\": \(n), \"out\": \(m), \"volume\": \(JSONWriter.number(scene.crosspoints[n, m])) }")
            }
        }
        w.list("crosspoints", points)
        w.list("outputs", scene.outputs.map { o in
            "{ \"name\": \(JSONWriter.quoted(o.name)), \"volume\": \(JSONWriter.number(o.volume)), \"mute\": \(o.mute) }"
        })
        w.field("master", "{ \"volume\": \(JSONWriter.number(scene.master.volume)), \"mute\": \(scene.master.mute) }")
    }
}
