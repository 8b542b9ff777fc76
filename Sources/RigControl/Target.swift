import Catalogue

/// One concrete thing an OSC address names: a parameter of the catalogue
/// at one place and in one of its address forms, a relative step of one, or
/// one of the catalogue's commands. Channel numbers are 1-based.
public enum Target: Hashable, Sendable {
    /// Parameter number `parameter` of the catalogue, at `place`, written in `form`.
    case parameter(Int, Parameter.Place, Form)
    /// A step of that parameter from its current value, counted in the
    /// form's unit (`ADDRESS/delta`): for encoders and scripts.
    case delta(Int, Parameter.Place, Form)
    /// A finger on that parameter's control, or lifted (`ADDRESS/z`,
    /// `ADDRESS/touch`): its sender is not sent feedback for it meanwhile.
    case touch(Int, Parameter.Place, Form)
    /// Where that parameter is now, on its way while it fades
    /// (`ADDRESS/current`, query only).
    case current(Int, Parameter.Place, Form)
    /// One of the catalogue's commands (`Catalogue+Commands.swift`).
    case command(Command.Name)
    /// `/preset/recall/{name}`: a preset recalled by the name in its address.
    case recallPreset(String)
    case safe(Safe)

    public typealias Form = Parameter.Form

    /// A recall safe on one strip (`Catalogue.safes`): the part keeps its
    /// live values through recalls. A mix safe keeps every crosspoint into
    /// its output.
    public struct Safe: Hashable, Sendable {
        public let kind: RecallSafe.Kind
        /// The strip it is on (1 for the master).
        public let channel: Int

        public init(_ kind: RecallSafe.Kind, _ channel: Int) {
            self.kind = kind
            self.channel = channel
        }

        public static func source(_ n: Int) -> Safe { Safe(.source, n) }
        public static func output(_ m: Int) -> Safe { Safe(.output, m) }
        public static func mix(_ m: Int) -> Safe { Safe(.mix, m) }
        public static func dca(_ g: Int) -> Safe { Safe(.dca, g) }
        public static let master = Safe(.master, 1)
    }

    /// Whether it is a relative step (`…/delta`).
    public var isDelta: Bool { if case .delta = self { true } else { false } }

    /// The command it is, if it is one.
    public var commandName: Command.Name? { if case .command(let name) = self { name } else { nil } }

    /// The catalogue's description of the command it is (a recall by name
    /// is `/preset/recall` on a button).
    var command: Command? {
        switch self {
        case .command(let name): Catalogue.command(name)
        case .recallPreset: Catalogue.command(.presetRecall)
        default: nil
        }
    }

    /// The address of a command or safe (parameters: `AddressSpace.address`).
    var commandAddress: String {
        switch self {
        case .parameter, .delta, .touch, .current: ""
        case .command(let name): name.address
        case .safe(let safe): RecallSafe.address(safe.kind, "\(safe.channel)")
        case .recallPreset(let name): "\(Command.Name.presetRecall.address)/\(name)"
        }
    }
}
