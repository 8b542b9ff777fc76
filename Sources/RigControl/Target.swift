/// One concrete thing an OSC address names. Channel numbers are 1-based.
public enum Target: Hashable, Sendable {
    case source(Int, SourceParameter)
    case crosspoint(input: Int, output: Int, LevelUnit)
    case output(Int, OutputParameter)
    case master(MasterParameter)
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

    /// How a level is written: linear gain, dB, or console fader position 0…1.
    public enum LevelUnit: Hashable, Sendable { case linear, decibels, fader }

    public enum SourceParameter: String, Hashable, Sendable, CaseIterable {
        case volume, db, fader, pan, mute, solo, name
    }

    public enum OutputParameter: String, Hashable, Sendable, CaseIterable {
        case volume, db, fader, mute, name
    }

    public enum MasterParameter: String, Hashable, Sendable, CaseIterable {
        case volume, db, fader, mute
    }

    public enum PresetCommand: String, Hashable, Sendable, CaseIterable {
        case save, recall, list, delete, rename, undo, current
    }

    /// The address forms of a level, as feedback sends them.
    public var levelForms: [Target] {
        switch self {
        case .source(let n, .volume), .source(let n, .db), .source(let n, .fader):
            [.source(n, .volume), .source(n, .db), .source(n, .fader)]
        case .output(let m, .volume), .output(let m, .db), .output(let m, .fader):
            [.output(m, .volume), .output(m, .db), .output(m, .fader)]
        case .master(.volume), .master(.db), .master(.fader):
            [.master(.volume), .master(.db), .master(.fader)]
        case .crosspoint(let i, let o, _):
            [.crosspoint(input: i, output: o, .linear), .crosspoint(input: i, output: o, .decibels),
             .crosspoint(input: i, output: o, .fader)]
        default:
            [self]
        }
    }

    /// A recall safe: the part keeps its live values through recalls.
    public enum Safe: Hashable, Sendable {
        case source(Int), output(Int), master
    }

    /// The canonical address of this target, as queries reply with it.
    public var address: String {
        switch self {
        case .source(let n, let p): "/source/\(n)/\(p.rawValue)"
        case .crosspoint(let i, let o, .linear): "/matrix/\(i)/\(o)"
        case .crosspoint(let i, let o, .decibels): "/matrix/\(i)/\(o)/db"
        case .crosspoint(let i, let o, .fader): "/matrix/\(i)/\(o)/fader"
        case .output(let m, let p): "/output/\(m)/\(p.rawValue)"
        case .master(let p): "/master/\(p.rawValue)"
        case .matrixMap: "/matrix/map"
        case .matrixClear: "/matrix/clear"
        case .status: "/status"
        case .ping: "/ping"
        case .preset(let command): "/preset/\(command.rawValue)"
        case .safe(.source(let n)): "/safe/source/\(n)"
        case .safe(.output(let m)): "/safe/output/\(m)"
        case .safe(.master): "/safe/master"
        case .subscribe: "/subscribe"
        case .unsubscribe: "/unsubscribe"
        case .metersSubscribe: "/meters/subscribe"
        case .metersUnsubscribe: "/meters/unsubscribe"
        }
    }
}
