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

    /// A recall safe: the part keeps its live values through recalls. A
    /// mix safe keeps every crosspoint into its output (a performer's mix).
    public enum Safe: Hashable, Sendable {
        case source(Int), output(Int), master, mix(Int), dca(Int)

        public var kind: RecallSafe.Kind {
            switch self {
            case .source: .source
            case .output: .output
            case .master: .master
            case .mix: .mix
            case .dca: .dca
            }
        }

        /// The channel it belongs to (1 for the master).
        public var channel: Int {
            switch self {
            case .source(let n): n
            case .output(let m), .mix(let m): m
            case .master: 1
            case .dca(let g): g
            }
        }
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

extension Parameter.Place {
    /// The strip place a safe belongs to (a mix safe: its output's).
    static func of(_ safe: Target.Safe) -> Parameter.Place {
        switch safe {
        case .source(let n): .source(n)
        case .output(let m), .mix(let m): .output(m)
        case .master: .master
        case .dca(let g): .dca(g)
        }
    }
}
