/// What a client may change: a name the engineer chose (`drums`), and its
/// control: everything, nothing (it may still query, subscribe and meter),
/// or the mixes of some outputs, for a performer's in-ears.
public struct Role: Sendable, Equatable, CustomStringConvertible {
    public enum Control: Sendable, Equatable {
        case all
        case none
        /// The mixes of these outputs (1-based, ascending, each once): every
        /// crosspoint into them, their level, mute and delay, and their mix
        /// safes (`/safe/mix/{m}`).
        case outputs([Int])
    }

    public let name: String
    public let control: Control
    /// The talkbacks it may talk on (`"talkbacks": [2]`): their talk alone,
    /// nothing else of theirs (docs/talkback.md).
    public let talkbacks: [Int]
    /// Whether it may put its own outputs in the engineer's listen (AFL;
    /// `"listen": true`).
    public let listens: Bool

    public init(name: String, control: Control, talkbacks: [Int] = [], listens: Bool = false) {
        self.name = name
        self.control = control
        self.talkbacks = talkbacks
        self.listens = listens
    }

    /// Whether it may talk on talkback t.
    public func talks(on t: Int) -> Bool { control == .all || talkbacks.contains(t) }

    /// Whether it may put output m in the engineer's listen.
    public func listens(to m: Int) -> Bool { control == .all || listens && controls(output: m) }

    /// Without an access file every admitted client is one of these:
    /// `--allow` networks may do everything, `--read-only` ones nothing.
    public static let full = Role(name: "full", control: .all)
    public static let readOnly = Role(name: "read-only", control: .none)

    /// Whether it may change output m's mix: its crosspoints, level, mute,
    /// delay and mix safe.
    public func controls(output m: Int) -> Bool {
        switch control {
        case .all: true
        case .none: false
        case .outputs(let outputs): outputs.contains(m)
        }
    }

    /// The outputs whose mixes it may change; empty for all and none.
    public var outputs: [Int] {
        if case .outputs(let outputs) = control { outputs } else { [] }
    }

    /// The `/error` reason for a change it may not make. The built-in
    /// read-only role keeps the reason it has always given.
    public var refusal: String {
        self == .readOnly ? "read-only" : "not permitted for role \(name)"
    }

    /// Its control in a word, as `/role` and `/status/access` give it:
    /// `all`, `none` or `outputs`.
    public var controlName: String {
        switch control {
        case .all: "all"
        case .none: "none"
        case .outputs: "outputs"
        }
    }

    public var description: String { name }
}
