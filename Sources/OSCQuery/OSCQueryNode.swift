import OSC

/// One node of an OSCQuery namespace: an OSC method (a parameter) or a
/// container of other nodes, with the attributes the OSCQuery proposal
/// defines for it.
///
/// A node is a method when it has `typeTags` (an empty string for a method
/// without arguments) and a container when it has `contents`; `CONTENTS` is
/// served for containers, `TYPE` for methods. The per-argument arrays
/// (`value`, `range`, `unit`, `clipMode`) hold one entry per type tag.
public struct OSCQueryNode: Sendable, Equatable {
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
    /// The current value, one argument per type tag (`VALUE`).
    public var value: [OSCArgument]?
    /// The range of each argument; a nil entry has none (`RANGE`).
    public var range: [OSCQueryRange?]?
    /// The unit of each argument: `dB`, `gain`… (`UNIT`).
    public var unit: [String?]?
    /// The clipping of each argument (`CLIPMODE`).
    public var clipMode: [ClipMode?]?
    /// The children, by their name (one address part).
    public var contents: [String: OSCQueryNode]

    public init(fullPath: String,
                description: String? = nil,
                typeTags: String? = nil,
                access: Access? = nil,
                value: [OSCArgument]? = nil,
                range: [OSCQueryRange?]? = nil,
                unit: [String?]? = nil,
                clipMode: [ClipMode?]? = nil,
                contents: [String: OSCQueryNode] = [:]) {
        self.fullPath = fullPath
        self.description = description
        self.typeTags = typeTags
        self.access = access
        self.value = value
        self.range = range
        self.unit = unit
        self.clipMode = clipMode
        self.contents = contents
    }

    /// A container: no type, no value, `ACCESS` 0.
    public static func container(_ fullPath: String, description: String? = nil,
                                 contents: [String: OSCQueryNode] = [:]) -> OSCQueryNode {
        OSCQueryNode(fullPath: fullPath, description: description, access: OSCQueryNode.Access.none,
                     contents: contents)
    }

    /// Whether the node is served with `CONTENTS`: it has children, or it is
    /// no method (no type tags).
    public var isContainer: Bool { !contents.isEmpty || typeTags == nil }
}
