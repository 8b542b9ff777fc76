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

    /// The strips that keep their live values through recalls and undo,
    /// by kind of safe (`Catalogue.safes`; the master's as strip 1).
    public struct Safes: Equatable, Sendable {
        private var strips: [RecallSafe.Kind: Set<Int>] = [:]
        public init() {}

        /// The strips safe of `kind`; set to change them all.
        public subscript(kind: RecallSafe.Kind) -> Set<Int> {
            get { strips[kind] ?? [] }
            set { strips[kind] = newValue.isEmpty ? nil : newValue }
        }

        public func contains(_ kind: RecallSafe.Kind, _ n: Int) -> Bool { strips[kind]?.contains(n) ?? false }

        public mutating func set(_ kind: RecallSafe.Kind, _ n: Int, _ on: Bool) {
            if on { self[kind].insert(n) } else { self[kind].remove(n) }
        }

        /// Only the strips `scene` has, of the safes `catalogue` knows.
        public mutating func fit(to scene: Scene, catalogue: Catalogue) {
            var fitted = Safes()
            for safe in catalogue.safes {
                let count = catalogue.kind(safe.strip)?.count(scene) ?? 0
                fitted[safe.kind] = self[safe.kind].filter { $0 <= count }
            }
            self = fitted
        }

        /// Every safe strip: its safe and its number, in the catalogue's order.
        public func all(_ catalogue: Catalogue) -> [(safe: RecallSafe, n: Int)] {
            catalogue.safes.flatMap { safe in self[safe.kind].sorted().map { (safe, $0) } }
        }
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
        // A safe's field only when it has strips, but for those of the first
        // state files: a build from before a safe can still read the file (a
        // rollback keeps the show's state).
        var fields: [(String, String)] = []
        for safe in catalogue.safes where safe.inEveryFile || !safes[safe.kind].isEmpty {
            fields.append((safe.field, safe.isSingle ? "\(safes.contains(safe.kind, 1))"
                                                     : JSONWriter.numbers(safes[safe.kind].sorted())))
        }
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
                   try reader.object(value, at: "safes", allowed: catalogue.safes.map(\.field))
               }) {
                // A list of strip numbers, each in 1...count; leniently, a bad entry is skipped.
                for safe in catalogue.safes {
                    guard let entry = safes[safe.field] else { continue }
                    let at = "safes.\(safe.field)"
                    if safe.isSingle {
                        let on = try reader.field { () throws(FileError) in try reader.bool(entry, at: at) } ?? false
                        state.safes.set(safe.kind, 1, on)
                        continue
                    }
                    let count = catalogue.kind(safe.strip)?.count(scene) ?? 0
                    guard let entries = try reader.field({ () throws(FileError) in
                        try reader.array(entry, at: at, maxCount: count)
                    }) else { continue }
                    for (i, v) in entries.enumerated() {
                        let number = try reader.field { () throws(FileError) in
                            try reader.integer(v, at: "\(at)[\(i)]", in: 1...max(1, count))
                        }
                        if let number, number <= count { state.safes.set(safe.kind, number, true) }
                    }
                }
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
    public func fitted(inputs: Int, outputs: Int, dcas: Int? = nil, muteGroups: Int? = nil,
                       banks: [String: Bank]? = nil,
                       catalogue: Catalogue) -> (state: RigState, skipped: [String]) {
        let (scene, skipped) = Preset(name: "", scene: scene).fitted(inputs: inputs, outputs: outputs, dcas: dcas,
                                                                     muteGroups: muteGroups, banks: banks)
        var state = self
        state.scene = scene
        state.safes.fit(to: scene, catalogue: catalogue)
        return (state, skipped)
    }
}
