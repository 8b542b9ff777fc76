import JSON
import Catalogue
import FoundationEssentials
import MixCore
import SceneModel

/// Everything the rig must get back after a restart: the live scene, the
/// recall safes, and which preset was last recalled.
public struct RigState: Equatable, Sendable {
    public var scene: Scene
    public var safes: Safes
    /// The last recalled (or saved) preset, if any.
    public var preset: String?
    /// Whether anything changed since that recall.
    public var modified: Bool

    public struct Safes: Equatable, Sendable {
        public var sources: Set<Int> = []
        public var outputs: Set<Int> = []
        public var master = false
        /// Outputs whose mixes (every crosspoint into them) keep their live
        /// values through recalls and undo: performers' in-ear mixes.
        public var mixes: Set<Int> = []
        /// DCAs that keep their level, mute and name through recalls and undo.
        public var dcas: Set<Int> = []
        public init() {}
    }

    public init(scene: Scene, safes: Safes = Safes(), preset: String? = nil, modified: Bool = false) {
        self.scene = scene
        self.safes = safes
        self.preset = preset
        self.modified = modified
    }

    public static let format = "crosspoint-state"

    public func encoded(catalogue: Catalogue = Catalogue()) -> Data {
        var w = JSONWriter()
        w.open("{")
        w.field("format", JSONWriter.quoted(Self.format))
        w.field("version", "\(PresetCoding.version)")
        w.field("preset", preset.map(JSONWriter.quoted) ?? "null")
        w.field("modified", "\(modified)")
        // The longest delay the rig ran with, for `crosspoint preset` to read
        // presets as it does; only when not the default, so that a build
        // from before it can still read the file.
        if catalogue.longestDelay != Catalogue.defaultLongestDelay {
            w.field("max-delay-ms", JSONWriter.number(catalogue.longestDelay))
        }
        // `mixes` only when there are any: a build from before mix safes can
        // still read the file (a rollback keeps the show's state).
        var fields = [("sources", JSONWriter.numbers(safes.sources.sorted())),
                      ("outputs", JSONWriter.numbers(safes.outputs.sorted())), ("master", "\(safes.master)")]
        if !safes.mixes.isEmpty { fields.append(("mixes", JSONWriter.numbers(safes.mixes.sorted()))) }
        if !safes.dcas.isEmpty { fields.append(("dcas", JSONWriter.numbers(safes.dcas.sorted()))) }
        w.field("safes", JSONWriter.inline(fields))
        PresetCoding.encodeScene(scene, into: &w, catalogue: catalogue, document: .state)
        w.close("}")
        return w.data
    }

    /// Reads a state file strictly: its first bad field is the error.
    public static func decode(_ data: Data, file: String, catalogue: Catalogue = Catalogue()) throws(FileError) -> RigState {
        try decode(data, reader: FieldReader(file: file), catalogue: catalogue)
    }

    /// Reads a state file field by field, as the rig does at start: a field
    /// that cannot be read (a value out of range, a patch the rig would
    /// refuse, a field it does not know) is skipped and named, and the rest
    /// of the scene kept. Only a file that is not JSON, not a state file, or
    /// whose channel counts cannot be read is an error.
    public static func read(_ data: Data, file: String,
                            catalogue: Catalogue = Catalogue()) throws(FileError) -> (state: RigState, skipped: [FileError]) {
        let skipped = SkippedFields()
        let state = try decode(data, reader: FieldReader(file: file, skipping: skipped), catalogue: catalogue)
        return (state, skipped.all)
    }

    private static func decode(_ data: Data, reader: FieldReader, catalogue: Catalogue) throws(FileError) -> RigState {
        try FieldReader.read(data, file: reader.file) { (root) throws(FileError) -> RigState in
            let fields = try reader.object(root, at: "", allowed: [
                "format", "version", "preset", "modified", "max-delay-ms", "safes",
            ] + PresetCoding.FieldNames.scene(catalogue))
            try PresetCoding.checkHeader(fields, reader: reader, format: format)
            if let value = fields["max-delay-ms"] {
                try reader.field { () throws(FileError) in _ = try longestDelay(value, reader) }
            }
            let scene = try PresetCoding.decodeScene(fields, reader: reader, at: "", catalogue: catalogue, document: .state)
            var state = RigState(scene: scene)
            if let value = fields["preset"], !value.isNull {
                let name = try reader.field { () throws(FileError) in try reader.string(value, at: "preset", maxLength: 64) }
                state.preset = name.flatMap { PresetName.isValid($0) ? $0 : nil }
            }
            if let value = fields["modified"] {
                state.modified = try reader.field { () throws(FileError) in try reader.bool(value, at: "modified") } ?? true
            }
            if let value = fields["safes"],
               let safes = try reader.field({ () throws(FileError) in
                   try reader.object(value, at: "safes", allowed: ["sources", "outputs", "master", "mixes", "dcas"])
               }) {
                // A list of channel numbers, each in 1...count; leniently, a bad entry is skipped.
                func numbers(_ name: String, count: Int) throws(FileError) -> Set<Int> {
                    guard let list = safes[name],
                          let entries = try reader.field({ () throws(FileError) in
                              try reader.array(list, at: "safes.\(name)", maxCount: count)
                          }) else { return [] }
                    var found = Set<Int>()
                    for (i, v) in entries.enumerated() {
                        let number = try reader.field { () throws(FileError) in
                            try reader.integer(v, at: "safes.\(name)[\(i)]", in: 1...max(1, count))
                        }
                        if let number, number <= count { found.insert(number) }
                    }
                    return found
                }
                state.safes.sources = try numbers("sources", count: scene.inputCount)
                state.safes.outputs = try numbers("outputs", count: scene.outputCount)
                if let v = safes["master"] {
                    state.safes.master = try reader.field { () throws(FileError) in try reader.bool(v, at: "safes.master") } ?? false
                }
                state.safes.mixes = try numbers("mixes", count: scene.outputCount)
                state.safes.dcas = try numbers("dcas", count: scene.dcas.count)
            }
            return state
        }
    }
}

extension RigState {
    /// The longest delay a state file says its rig ran with (`max-delay-ms`),
    /// the default when it says none; an error naming the file (and the
    /// field) for a file that is not JSON or a value out of range.
    public static func longestDelay(in data: Data, file: String) throws(FileError) -> Float {
        try FieldReader.read(data, file: file) { (root) throws(FileError) -> Float in
            let reader = FieldReader(file: file)
            guard let value = root.object?["max-delay-ms"] else {
                return Catalogue.defaultLongestDelay
            }
            return try longestDelay(value, reader)
        }
    }

    static func longestDelay(_ value: JSONValue, _ reader: FieldReader) throws(FileError) -> Float {
        let range = Catalogue.longestDelays
        return Float(try reader.number(value, at: "max-delay-ms", in: Double(range.lowerBound)...Double(range.upperBound)))
    }

    /// The state on a rig of another size: the scene fitted like a preset,
    /// safes beyond the rig dropped.
    public func fitted(inputs: Int, outputs: Int, dcas: Int? = nil,
                       muteGroups: Int? = nil) -> (state: RigState, skipped: [String]) {
        let (scene, skipped) = Preset(name: "", scene: scene).fitted(inputs: inputs, outputs: outputs, dcas: dcas,
                                                                     muteGroups: muteGroups)
        var state = self
        state.scene = scene
        state.safes.dcas = state.safes.dcas.filter { $0 <= scene.dcas.count }
        state.safes.sources = state.safes.sources.filter { $0 <= inputs }
        state.safes.outputs = state.safes.outputs.filter { $0 <= outputs }
        state.safes.mixes = state.safes.mixes.filter { $0 <= outputs }
        return (state, skipped)
    }
}
