import SceneModel

/// A safe: a part of the scene that keeps its live values through recalls
/// and undo, described once with what it keeps. `/safe/source/{n}`,
/// `/safe/output/{m}`, `/safe/master`, `/safe/dca/{g}`, `/safe/mix/{m}`
/// (every crosspoint into output m: a performer's mix, never reached by a
/// pattern), and `/safe/{kind}/{n}` for each kind kept in banks. Not in
/// presets; kept in the state file under `safes.{field}` (docs/presets.md).
public struct RecallSafe: Sendable {
    /// Which safe: its name in addresses (`/safe/{name}/{n}`).
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public init(_ name: String) { self.name = name }
        public var description: String { name }

        public static let source = Kind("source")
        public static let output = Kind("output")
        public static let master = Kind("master")
        public static let mix = Kind("mix")
        public static let dca = Kind("dca")
    }

    public let kind: Kind
    /// The strip it sits on: a mix safe on its output's.
    public let strip: Parameter.Strip
    /// Its field under the state file's `safes`: a list of strip numbers,
    /// or for a single strip (the master), true or false.
    public let field: String
    /// Whether the state file has its field even when nothing is safe (the
    /// fields of the first state files); the others are written only when
    /// something is, so that a build from before them still reads the file.
    public let inEveryFile: Bool
    /// Whether a pattern reaches it (`/safe/*/*`).
    public let patterned: Bool
    /// For OSCQuery, with `{strip}` as in `Parameter.Display`.
    public let description: String
    public let reach: Parameter.Reach
    public let display: Parameter.Display
    /// Puts back into `target` what the safe on strip n keeps of `live`.
    public let keep: @Sendable (_ live: Scene, _ target: inout Scene, _ n: Int) -> Void

    public init(_ kind: Kind, on strip: Parameter.Strip, field: String, inEveryFile: Bool = false,
                patterned: Bool = true, _ description: String, reach: Parameter.Reach = .engineer,
                display: Parameter.Display,
                keep: @escaping @Sendable (_ live: Scene, _ target: inout Scene, _ n: Int) -> Void) {
        self.kind = kind
        self.strip = strip
        self.field = field
        self.inEveryFile = inEveryFile
        self.patterned = patterned
        self.description = description
        self.reach = reach
        self.display = display
        self.keep = keep
    }

    /// `/safe/source/{n}` with the channel written as `channel`.
    public func address(_ channel: String) -> String { Self.address(kind, channel) }

    public static func address(_ kind: Kind, _ channel: String) -> String {
        kind == .master ? "/safe/master" : "/safe/\(kind.name)/\(channel)"
    }

    /// Whether its strip is the only one of its kind (`/safe/master`, no number).
    public var isSingle: Bool { kind == .master }

    /// The safe of a kind kept in banks: its strips' values, every one.
    public static func bank(_ kind: StripKind) -> RecallSafe {
        let name = kind.strip.name
        return RecallSafe(Kind(name), on: kind.strip, field: kind.field ?? name, "Recall safe for {strip}",
                          display: .init(.toggle(label: "Safe"), "Recall safe {strip}")) { live, target, n in
            if let bank = live.banks[name] { target.banks[name]?.keep(n, from: bank) }
        }
    }
}

extension Catalogue {
    /// The recall safes of the rig's own kinds, and the performer's mix
    /// safe, in the order a pattern reaching several resolves to.
    static let builtInSafes: [RecallSafe] = [
        RecallSafe(.source, on: .source, field: "sources", inEveryFile: true, "Recall safe for {strip}",
                   display: .init(.toggle(label: "Safe"), "Recall safe {strip}")) { live, target, n in
            if live.sources.indices.contains(n - 1) && target.sources.indices.contains(n - 1) {
                target.sources[n - 1] = live.sources[n - 1]
            }
        },
        RecallSafe(.output, on: .output, field: "outputs", inEveryFile: true, "Recall safe for {strip}",
                   display: .init(.toggle(label: "Safe"), "Recall safe {strip}")) { live, target, m in
            if live.outputs.indices.contains(m - 1) && target.outputs.indices.contains(m - 1) {
                target.outputs[m - 1] = live.outputs[m - 1]
            }
        },
        RecallSafe(.master, on: .master, field: "master", inEveryFile: true, "Recall safe for the master",
                   display: .init(.toggle(label: "Safe"), "Recall safe master")) { live, target, _ in
            target.master = live.master
        },
        RecallSafe(.mix, on: .output, field: "mixes", patterned: false,
                   "Mix safe for {strip}: every crosspoint into it keeps its level through recalls and undo",
                   reach: .mix, display: .init(.toggle(label: "Keep my mix"),
                                               "Keep my mix on {strip} through preset recalls")) { live, target, m in
            guard m <= min(live.outputCount, target.outputCount) else { return }
            for n in stride(from: 1, through: min(live.inputCount, target.inputCount), by: 1) {
                target.crosspoints[n, m] = live.crosspoints[n, m]
            }
        },
        RecallSafe(.dca, on: .dca, field: "dcas",
                   "Recall safe for {strip}: its level, mute and name stay through recalls and undo",
                   display: .init(.toggle(label: "Safe"), "Recall safe {strip}")) { live, target, g in
            if live.dcas.indices.contains(g - 1) && target.dcas.indices.contains(g - 1) {
                target.dcas[g - 1] = live.dcas[g - 1]
            }
        },
    ]

    /// The description of a kind of safe.
    public func safe(_ kind: RecallSafe.Kind) -> RecallSafe? {
        safes.first { $0.kind == kind }
    }
}
