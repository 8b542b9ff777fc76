/// One of the rig's commands (everything that is not a parameter of the
/// scene), described once: its address, the forms of arguments it takes,
/// whether it takes a trailing button, who may send it and what it does.
/// The address space resolves commands from these descriptions; argument
/// forms, buttons, role checks, timed-bundle rehearsal and OSCQuery's
/// nodes are derived from them. Its behaviour is the controller's handler
/// for its `Name`. The table is `Catalogue.commands`.
public struct Command: Sendable {
    /// Every command, by its address.
    public enum Name: String, Hashable, Sendable, CaseIterable {
        case matrixMap = "/matrix/map"
        case matrixClear = "/matrix/clear"
        case listenClear = "/listen/clear"
        case status = "/status"
        case stateNoteAck = "/status/state_note/ack"
        case ping = "/ping"
        case subscribe = "/subscribe"
        case subscribeForms = "/subscribe/forms"
        case unsubscribe = "/unsubscribe"
        case metersSubscribe = "/meters/subscribe"
        case metersUnsubscribe = "/meters/unsubscribe"
        case metersRate = "/meters/rate"
        case presetSave = "/preset/save"
        case presetRecall = "/preset/recall"
        case presetUndo = "/preset/undo"
        case presetList = "/preset/list"
        case presetCurrent = "/preset/current"
        case presetDelete = "/preset/delete"
        case presetRename = "/preset/rename"
        case presetUnreadable = "/preset/unreadable"
        case jackPorts = "/jack/ports"
        case rigInputs = "/rig/inputs"
        case rigOutputs = "/rig/outputs"
        case rigs = "/rigs"
        case login = "/login"
        case logout = "/logout"
        case role = "/role"
        case midiLearn = "/midi/learn"
        case midiForget = "/midi/forget"

        public var address: String { rawValue }
    }

    /// One way of calling an address: its type tags and, per argument, the
    /// range it is clamped to (if numeric) and the unit.
    public struct Signature: Sendable {
        /// OSC type tags, without the comma; "" for no argument.
        public var typeTags: String
        /// Per argument: the lowest and highest value, if numeric.
        public var range: [ClosedRange<Double>?]
        /// Per argument: a unit from the OSCQuery proposal's list, if any.
        public var unit: [String?]
        /// What this form does, when it differs from the others.
        public var description: String?

        public init(typeTags: String, range: [ClosedRange<Double>?], unit: [String?], description: String? = nil) {
            self.typeTags = typeTags
            self.range = range
            self.unit = unit
            self.description = description
        }

        public init(_ typeTags: String, _ range: [ClosedRange<Double>?], _ description: String, units: [String?]? = nil) {
            self.init(typeTags: typeTags, range: range, unit: units ?? Array(repeating: nil, count: range.count),
                      description: description)
        }

        public static let none = Self(typeTags: "", range: [], unit: [])
        public static let toggle = Self(typeTags: "i", range: [0...1], unit: [nil])
        public static let text = Self(typeTags: "s", range: [nil], unit: [nil])
        /// A trailing button value.
        public static let button = Self(typeTags: "f", range: [0...1], unit: [nil],
                                        description: "A button: acts when not 0; 0 (a release) does nothing")
    }

    /// How an action reads a trailing button (docs/surfaces.md, Buttons):
    /// a press (not 0, or T) acts once, as the address without it does; a
    /// release does nothing. An action with an argument of its own reads a
    /// lone number as its own only where a button could not have sent it.
    public struct Button: Sendable {
        /// The action's own argument before the button: its usage in the
        /// `/error` reason, and whether a lone argument is it, given its
        /// number (nil: not a number, such as T or F; NaN is a number).
        /// Nil: the action has none.
        public var own: (usage: String, isOwn: @Sendable (Double?) -> Bool)?

        public var usage: String { own.map { "\($0.usage) [button]" } ?? "[button]" }

        public static let plain = Button(own: nil)
    }

    /// What sending it does to the rig, for the role check (who may send it).
    public enum Effect: Sendable {
        /// Nothing in the rig: queries, the sender's own session
        /// (subscriptions, meters, login). Anyone admitted may send it.
        case none
        /// Changes the rig (the scene, the presets): full control only.
        case changes
        /// Changes it when sent with arguments, answers a query without.
        case changesWithArguments
    }

    public let name: Name
    public let description: String
    /// How it is called (`TYPE` in OSCQuery), and its other forms.
    public let signature: Signature
    public let overloads: [Signature]
    public let button: Button?
    public let effect: Effect
    /// Whether its effect reaches the audio (a recall, a clear): worked out
    /// ahead of a timed bundle's time (`rehearse`). Commands that change
    /// nothing the audio hears are not.
    public let movesAudio: Bool
    /// An action no pattern reaches: its last part must be written out
    /// (`/matrix/clear`, as `recall` in `/preset/recall/NAME` and `mix` in
    /// `/safe/mix/{m}` are).
    public let exact: Bool
    /// Whether the address holds a value a client may read and set
    /// (OSCQuery's `ACCESS` 3), like a parameter's.
    public let hasValue: Bool
    /// Whether its sender always gets an answer (`/pong`, `/status/…`,
    /// `/preset/saved`, `/role`, or an `/error`): `crosspoint send` then
    /// says when none came. The others act and answer only `/error`.
    public let answers: Bool

    public var address: String { name.address }

    public init(_ name: Name, _ description: String, _ signature: Signature = .none, _ overloads: [Signature]? = nil,
                button: Button? = .plain, effect: Effect = .none, movesAudio: Bool = false, exact: Bool = false,
                hasValue: Bool = false, answers: Bool = false) {
        self.name = name
        self.description = description
        self.signature = signature
        // An action's button is one more way of calling it.
        self.overloads = overloads ?? (button == nil ? [] : [.button])
        self.button = button
        self.effect = effect
        self.movesAudio = movesAudio
        self.exact = exact
        self.hasValue = hasValue
        self.answers = answers
    }
}
