import Catalogue

/// One concrete thing an OSC address names: a parameter of the catalogue
/// at one place and in one of its address forms, a relative step of one, or
/// one of the rig's commands. Channel numbers are 1-based.
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
    case matrixMap
    case matrixClear
    case status
    case ping
    case preset(PresetCommand)
    case safe(Safe)
    case subscribe
    case unsubscribe
    case metersSubscribe
    case metersUnsubscribe
    case metersRate
    /// `/preset/recall/{name}`: a preset recalled by the name in its address.
    case recallPreset(String)
    /// `/login ,s CODE`, `/logout`, `/role`: a session's role (Controller+Roles.swift).
    case login
    case logout
    case role

    /// How a parameter's value is written: a level as linear gain, dB, or
    /// console fader position 0…1; anything else plainly.
    public enum Form: Hashable, Sendable, CaseIterable { case plain, linear, decibels, fader }

    public enum PresetCommand: String, Hashable, Sendable, CaseIterable {
        case save, recall, list, delete, rename, undo, current
    }

    /// A recall safe: the part keeps its live values through recalls. A
    /// mix safe keeps every crosspoint into its output (a performer's mix).
    public enum Safe: Hashable, Sendable {
        case source(Int), output(Int), master, mix(Int)
    }

    /// Whether it is a relative step (`…/delta`).
    public var isDelta: Bool { if case .delta = self { true } else { false } }

    /// The address of a command (parameters: `AddressSpace.address`).
    var commandAddress: String {
        switch self {
        case .parameter, .delta, .touch, .current: ""
        case .matrixMap: "/matrix/map"
        case .matrixClear: "/matrix/clear"
        case .status: "/status"
        case .ping: "/ping"
        case .preset(let command): "/preset/\(command.rawValue)"
        case .safe(.source(let n)): "/safe/source/\(n)"
        case .safe(.output(let m)): "/safe/output/\(m)"
        case .safe(.master): "/safe/master"
        case .safe(.mix(let m)): "/safe/mix/\(m)"
        case .subscribe: "/subscribe"
        case .unsubscribe: "/unsubscribe"
        case .metersSubscribe: "/meters/subscribe"
        case .metersUnsubscribe: "/meters/unsubscribe"
        case .metersRate: "/meters/rate"
        case .recallPreset(let name): "/preset/recall/\(name)"
        case .login: "/login"
        case .logout: "/logout"
        case .role: "/role"
        }
    }
}
