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

    public enum LevelUnit: Hashable, Sendable { case linear, decibels }

    public enum SourceParameter: String, Hashable, Sendable, CaseIterable {
        case volume, db, pan, mute, solo, name
    }

    public enum OutputParameter: String, Hashable, Sendable, CaseIterable {
        case volume, db, mute, name
    }

    public enum MasterParameter: String, Hashable, Sendable, CaseIterable {
        case volume, db, mute
    }

    public enum PresetCommand: String, Hashable, Sendable, CaseIterable {
        case save, recall, list, delete, rename, undo, current
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
        }
    }
}
