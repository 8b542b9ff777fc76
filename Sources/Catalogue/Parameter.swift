import MixCore
import SceneModel

/// One kind of parameter of the scene (source volume, crosspoint, output
/// mute, …), described once. Everything else is derived from these
/// descriptions: OSC addresses and their resolution, argument checking and
/// relative steps (`Parameter+Forms`, `Parameter+Steps`), query replies and
/// feedback, OSCQuery descriptions, who may change it, the preset and state
/// file fields, `preset show`/`diff`, the page's controls, and the kernel's
/// ramp layout (`Catalogue`).
public struct Parameter: Sendable {
    /// Whose parameter it is: the strip fixes the address prefix
    /// (`/source/{n}`, `/output/{m}`, `/master`, `/matrix/{in}/{out}`,
    /// `/dca/{g}`, `/mutegroup/{g}`, and a source's membership of a group,
    /// `/source/{n}/dca/{g}`, `/source/{n}/mutegroup/{g}`) and where the
    /// value lives in the `Scene`. The kind of strip it names is described
    /// once in the catalogue (`StripKind`); a kind the catalogue adds names
    /// its strips `/{name}/{n}`, and calls one by `noun` ("test bus 2").
    public struct Strip: Hashable, Sendable, CustomStringConvertible {
        /// Its name: for a kind the catalogue adds, the first part of its addresses.
        public let name: String
        /// One strip in words: "source", "DCA", "mute group".
        public let noun: String

        public init(_ name: String, noun: String) {
            self.name = name
            self.noun = noun
        }

        public static let source = Strip("source", noun: "source")
        public static let output = Strip("output", noun: "output")
        public static let master = Strip("master", noun: "master")
        public static let crosspoint = Strip("crosspoint", noun: "crosspoint")
        public static let dca = Strip("dca", noun: "DCA")
        public static let muteGroup = Strip("mutegroup", noun: "mute group")
        public static let dcaMember = Strip("dcaMember", noun: "membership of a DCA")
        public static let muteGroupMember = Strip("muteGroupMember", noun: "membership of a mute group")
        public static let talkback = Strip("talkback", noun: "talkback")
        public static let talkbackOutput = Strip("talkbackOutput", noun: "destination of a talkback")
        public static let listen = Strip("listen", noun: "listen")

        public var description: String { name }
    }

    /// What values it takes, and so how it is written and read.
    public enum Kind: Sendable {
        /// A gain 0…4 (1 = unity), addressed in three forms: linear, dB and
        /// console fader position; ramps by the fader law.
        case level
        /// A number in a range, clamped to it, in `unit`.
        case number(ClosedRange<Float>, unit: String)
        /// On or off: i, f (non-zero is on) or T/F.
        case toggle
        /// Text of at most `maxLength` characters.
        case text(maxLength: Int)
    }

    /// How a change reaches the audio thread.
    public enum Kernel: Sendable {
        /// It does not: the scene alone holds it (names).
        case none
        /// A ramp in a block of the kernel's (`RampBlock`): `ramp` gives
        /// the ramp's value for the parameter's.
        case ramp(RampBlock, ramp: @Sendable (Value) -> Float)
        /// The crosspoint matrix's own ramps.
        case crosspoint
        /// Through the solo gates, which depend on every source's solo
        /// (`Catalogue.soloGate`).
        case soloGate
        /// Through the member sources' group gain and gate
        /// (`Catalogue.groupChanges`), which depend on every group's level
        /// and mute and on the memberships.
        case groups
        /// Through the outputs' talk sends and dims (`Catalogue.talkRamps`),
        /// which depend on every talkback's talk, level, dim and destinations.
        case talkbacks
        /// Through the listen's shares of each source and output and its
        /// gain (`Catalogue.listenRamps`), which depend on every selection,
        /// the listen's settings and the talkbacks.
        case listen
    }

    /// A parameter's value: a number, on or off, or text.
    public typealias Value = Setting

    /// Where its value is kept.
    public enum Storage: Sendable {
        /// In the scene: presets hold it and a recall moves it; the state
        /// file keeps it.
        case scene
        /// The rig's wiring (a source's input patch): the state file keeps
        /// it, presets do not hold it, and a recall or undo never changes it.
        case rig
        /// Reported by the rig (a source's presence): never set by a
        /// client (a query answers it, feedback carries it), kept nowhere.
        case live
        /// Set by clients and kept nowhere (a talk button): presets do not
        /// hold it, the state file does not keep it, a recall or undo never
        /// changes it, and a restart starts it at its default.
        case transient

        /// Whether a document of this kind holds it.
        public func isKept(in document: Document) -> Bool {
            switch self {
            case .scene: true
            case .rig: document == .state
            case .live, .transient: false
            }
        }
    }

    /// The files a scene is written to: a preset, or the rig's state file.
    public enum Document: Sendable { case preset, state }

    /// Who may change it. `engineer`: a session with full control only.
    /// `mix`: also a performer's role (docs/access.md) at the outputs it
    /// holds, for a parameter that belongs to one output (a crosspoint into
    /// it, or one of the output's own): it changes that output's mix alone.
    public enum Reach: String, Sendable { case engineer, mix }

    /// How a page shows it (`Display`).
    public enum Control: Sendable, Equatable {
        /// A fader on the console law, at the level's `fader` form.
        case fader
        /// A knob or slider centred on 0 (a pan).
        case pan
        /// A number field, in steps of `step`, with `suffix` after it ("ms").
        case number(step: Float, suffix: String)
        /// An on/off button showing `label` ("M", "S", "Ø").
        case toggle(label: String)
        /// A text field; `placeholder` with `{n}` for the channel.
        case text(placeholder: String)
        /// A choice of the other clients' output ports (`/jack/ports`) or none,
        /// setting the patch to exactly the port chosen.
        case patch
        /// A light, not a control: on while the value is on (presence).
        case presence
        /// One of a few words (`options`), as a group of radio buttons.
        case choice(options: [String])

        /// Its name in the page's description (`catalogue.json`).
        public var name: String {
            switch self {
            case .fader: "fader"
            case .pan: "pan"
            case .number: "number"
            case .toggle: "toggle"
            case .text: "text"
            case .patch: "patch"
            case .presence: "presence"
            case .choice: "choice"
            }
        }

        public static let allNames = ["fader", "pan", "number", "toggle", "text", "patch", "presence", "choice"]
    }

    /// How it is shown: its control, and its title for assistive technology
    /// and tooltips, with `{strip}` for "source 3" and `{Strip}` for
    /// "Source 3" ("Mute {strip}", "{Strip} pan").
    public struct Display: Sendable {
        public let control: Control
        public let title: String
        /// Where a page shows it: in the strip (nil), or in a view of the
        /// strip's opened on demand (`eq`: its EQ view; `limiter`: its
        /// limiter's).
        public let view: View?

        public enum View: String, Sendable { case eq, limiter, head }

        public init(_ control: Control, _ title: String, view: View? = nil) {
            self.control = control
            self.title = title
            self.view = view
        }
    }

    /// Where one parameter of this kind is: channel and group numbers are 1-based.
    public enum Place: Hashable, Sendable {
        case source(Int), output(Int), master, crosspoint(input: Int, output: Int)
        case dca(Int), muteGroup(Int)
        /// Source n's membership of DCA g, or of mute group g.
        case dcaMember(source: Int, dca: Int), muteGroupMember(source: Int, group: Int)
        /// Output m as one of talkback t's destinations.
        case talkbackOutput(talkback: Int, output: Int)
        /// The engineer's listen: `/listen`.
        case listen
        /// Strip n of a kind the catalogue adds (`StripKind`): `/{name}/{n}`.
        case numbered(Strip, Int)
    }

    public let strip: Strip
    /// Its name in addresses and in files: `/source/{n}/NAME`, a source's
    /// `"NAME"` field. The crosspoint's level has none: `/matrix/{in}/{out}`.
    public let name: String
    public let kind: Kind
    /// What it is, for OSCQuery: "level", "pan, -1 left to +1 right".
    public let description: String
    /// Its value in a new scene.
    public let defaultValue: Value
    public let kernel: Kernel
    public let reach: Reach
    public let storage: Storage
    /// Whether a linked pair of sources holds one value of it for both
    /// members (level, pan as the balance, mute, solo, polarity, the link
    /// itself): a change to either member is both's (docs/sources.md).
    public let sharedByPair: Bool
    public let display: Display
    /// The name of a toggle of its strip's that turns this toggle into a
    /// latch while on (a talkback's `latch` for its `talk`): a 1 then flips
    /// it and a 0 leaves it (`LiveScene.latched`). Nil: as sent.
    public var latch: String?
    /// Why a value its kind takes is still refused (a patch that is not a
    /// regular expression), or nil.
    public let check: @Sendable (Value) -> String?
    /// Its value in a scene, and setting it.
    public let get: @Sendable (Scene, Place) -> Value
    public let set: @Sendable (inout Scene, Place, Value) -> Void

    public init(_ strip: Strip, _ name: String, _ kind: Kind, _ description: String, default defaultValue: Value,
                kernel: Kernel, reach: Reach = .engineer, storage: Storage = .scene, sharedByPair: Bool = false,
                display: Display,
                check: @escaping @Sendable (Value) -> String? = { _ in nil },
                get: @escaping @Sendable (Scene, Place) -> Value,
                set: @escaping @Sendable (inout Scene, Place, Value) -> Void) {
        self.strip = strip
        self.name = name
        self.kind = kind
        self.description = description
        self.defaultValue = defaultValue
        self.kernel = kernel
        self.reach = reach
        self.storage = storage
        self.sharedByPair = sharedByPair
        self.display = display
        self.check = check
        self.get = get
        self.set = set
    }

    /// Whether a client may set it (not one the rig reports).
    public var isSettable: Bool { if case .live = storage { false } else { true } }

    /// Whether it is a level (a gain in three address forms, ramped by the fader law).
    public var isLevel: Bool { if case .level = kind { true } else { false } }

    /// The output whose mix it belongs to at `place`, for `Reach.mix`: the
    /// output of a crosspoint, or an output's own; nil elsewhere.
    public static func mixOutput(_ place: Place) -> Int? {
        switch place {
        case .crosspoint(_, let m), .output(let m): m
        case .source, .master, .dca, .muteGroup, .dcaMember, .muteGroupMember, .numbered, .talkbackOutput, .listen: nil
        }
    }
}

extension Parameter.Place {
    /// The strip channel (source n, output m, group g; 1 for the master).
    public var channel: Int {
        switch self {
        case .source(let n), .dcaMember(let n, _), .muteGroupMember(let n, _): n
        case .output(let m): m
        case .master, .listen: 1
        case .crosspoint(let input, _): input
        case .dca(let g), .muteGroup(let g): g
        case .numbered(_, let n), .talkbackOutput(let n, _): n
        }
    }

    /// The group of a group's place or a membership's.
    public var group: Int {
        switch self {
        case .dca(let g), .muteGroup(let g), .dcaMember(_, let g), .muteGroupMember(_, let g), .talkbackOutput(_, let g): g
        case .source, .output, .master, .crosspoint, .numbered, .listen: 0
        }
    }

    /// `/source/3`, `/output/2`, `/master`, `/matrix/1/2`.
    public var prefix: String {
        switch self {
        case .source(let n): "/source/\(n)"
        case .output(let m): "/output/\(m)"
        case .master: "/master"
        case .crosspoint(let i, let o): "/matrix/\(i)/\(o)"
        case .dca(let g): "/dca/\(g)"
        case .muteGroup(let g): "/mutegroup/\(g)"
        case .dcaMember(let n, let g): "/source/\(n)/dca/\(g)"
        case .muteGroupMember(let n, let g): "/source/\(n)/mutegroup/\(g)"
        case .numbered(let strip, let n): "/\(strip.name)/\(n)"
        case .talkbackOutput(let t, let m): "/talkback/\(t)/output/\(m)"
        case .listen: "/listen"
        }
    }

    /// A display title for this place: `{strip}` becomes "source 3",
    /// `{Strip}` "Source 3", `{g}` a membership's group.
    public func titled(_ template: String) -> String {
        let strip = switch self {
        case .source(let n): "source \(n)"
        case .output(let m): "output \(m)"
        case .master: "master"
        case .crosspoint(let i, let o): "crosspoint input \(i) to output \(o)"
        case .dca(let g): "DCA \(g)"
        case .muteGroup(let g): "mute group \(g)"
        case .dcaMember(let n, _), .muteGroupMember(let n, _): "source \(n)"
        case .numbered(let strip, let n): "\(strip.noun) \(n)"
        case .talkbackOutput(let t, _): "talkback \(t)"
        case .listen: "listen"
        }
        let title = switch self {
        case .dcaMember(let n, _), .muteGroupMember(let n, _): "Source \(n)"
        case .talkbackOutput(let t, _): "Talkback \(t)"
        default: title
        }
        return template.replacing("{strip}", with: strip).replacing("{Strip}", with: title)
            .replacing("{g}", with: "\(group)")
    }

    /// "Source 3", "Output 2", "Master", "Crosspoint input 1 to output 2".
    public var title: String {
        switch self {
        case .source(let n): "Source \(n)"
        case .output(let m): "Output \(m)"
        case .master: "Master"
        case .crosspoint(let i, let o): "Crosspoint input \(i) to output \(o)"
        case .dca(let g): "DCA \(g)"
        case .muteGroup(let g): "Mute group \(g)"
        case .dcaMember(let n, let g): "Source \(n) in DCA \(g)"
        case .muteGroupMember(let n, let g): "Source \(n) in mute group \(g)"
        case .numbered(let strip, let n): Self.capitalised(strip.noun) + " \(n)"
        case .talkbackOutput(let t, let m): "Talkback \(t) to output \(m)"
        case .listen: "Listen"
        }
    }

    /// "Test bus" for "test bus": the first letter up.
    static func capitalised(_ noun: String) -> String {
        noun.prefix(1).uppercased() + noun.dropFirst()
    }
}
