import OSC

/// One node of an OSCQuery namespace as a model declares it: an OSC method
/// (a parameter, an action) or a container, with the attributes the
/// OSCQuery proposal defines for it, except its value: a method with a
/// value names it by `valueKey`, and the model's `OSCQueryValues` give it
/// when a request is answered. `OSCQueryNamespace` is built from these.
///
/// A node is a method when it has `typeTags` (an empty string for a method
/// without arguments); it is served with `CONTENTS` when nodes are declared
/// below it, or when it is no method. The per-argument arrays (`range`,
/// `unit`, `clipMode`, and the value) hold one entry per type tag.
public struct OSCQueryNode: Sendable, Hashable {
    /// What a client may do with the node's value (the `ACCESS` bit mask).
    public enum Access: Int, Sendable, Equatable, CaseIterable {
        /// No value: a container, or a method that only triggers something.
        case none = 0
        /// The value may be read but not set.
        case read = 1
        /// The value may be set but not read.
        case write = 2
        /// The value may be read and set.
        case readWrite = 3

        /// Whether the value may be retrieved (bit 0).
        public var isReadable: Bool { rawValue & 1 != 0 }
        /// Whether the value may be set (bit 1).
        public var isWritable: Bool { rawValue & 2 != 0 }
    }

    /// How the method treats a value outside its `RANGE` (the `CLIPMODE` hint).
    public enum ClipMode: String, Sendable, Equatable, CaseIterable {
        /// Any value is used as it is.
        case none
        /// Values below the minimum are clipped to it.
        case low
        /// Values above the maximum are clipped to it.
        case high
        /// Values are clipped at both ends.
        case both
    }

    /// The full OSC address: `/source/1/volume`; `/` for the root.
    public var fullPath: String
    /// A human-readable description (`DESCRIPTION`).
    public var description: String?
    /// The OSC type tag string without its comma: `f`, `ii`, `s` (`TYPE`).
    public var typeTags: String?
    /// `ACCESS`; nil leaves it out (the client then assumes read and write).
    public var access: Access?
    /// Which value of the model's `OSCQueryValues` is this node's `VALUE`;
    /// nil: it has none.
    public var valueKey: Int?
    /// The range of each argument; a nil entry has none (`RANGE`).
    public var range: [OSCQueryRange?]?
    /// The unit of each argument, from the proposal's list: `gain.db`… (`UNIT`).
    public var unit: [String?]?
    /// The clipping of each argument (`CLIPMODE`).
    public var clipMode: [ClipMode?]?
    /// The other type tag strings the method takes (`OVERLOADS`): each with
    /// its own `typeTags`, `range`, `unit`, `clipMode` and `description`;
    /// their paths, access and values are not served.
    public var overloads: [OSCQueryNode]

    public init(fullPath: String,
                description: String? = nil,
                typeTags: String? = nil,
                access: Access? = nil,
                valueKey: Int? = nil,
                range: [OSCQueryRange?]? = nil,
                unit: [String?]? = nil,
                clipMode: [ClipMode?]? = nil,
                overloads: [OSCQueryNode] = []) {
        self.fullPath = fullPath
        self.description = description
        self.typeTags = typeTags
        self.access = access
        self.valueKey = valueKey
        self.range = range
        self.unit = unit
        self.clipMode = clipMode
        self.overloads = overloads
    }

    /// A container: no type, no value, `ACCESS` 0.
    public static func container(_ fullPath: String, description: String? = nil) -> OSCQueryNode {
        OSCQueryNode(fullPath: fullPath, description: description, access: OSCQueryNode.Access.none)
    }

    /// Whether `VALUE` may be served: `ACCESS` says readable, or is absent.
    var isReadable: Bool { access?.isReadable ?? true }
}
