import MixCore
import SceneModel

/// The kinds of strip the rig has, described once (`StripKind`), in the
/// order of a file's fields, a full picture's and `preset show`'s.
extension Catalogue {
    static let builtInKinds: [StripKind] = [
        StripKind(.source, .numbered, head: "source", plural: "sources", countField: "inputs", field: "sources",
                  counts: 1...Mixer.channelLimit, flag: "--inputs",
                  place: { n, _ in .source(n) }, count: \.inputCount),
        StripKind(.dcaMember, .membership(owner: .source, group: .dca, field: "dca"), head: nil, plural: "memberships of DCAs",
                  countField: nil, field: nil, place: { n, g in .dcaMember(source: n, dca: g) },
                  count: { $0.inputCount * $0.dcas.count }),
        StripKind(.muteGroupMember, .membership(owner: .source, group: .muteGroup, field: "mutegroup"), head: nil,
                  plural: "memberships of mute groups", countField: nil, field: nil,
                  place: { n, g in .muteGroupMember(source: n, group: g) },
                  count: { $0.inputCount * $0.muteGroups.count }),
        StripKind(.crosspoint, .crosspoint, head: "matrix", plural: "crosspoints", countField: nil, field: nil,
                  place: { n, m in .crosspoint(input: n, output: m) }, count: { $0.inputCount * $0.outputCount }),
        StripKind(.output, .numbered, head: "output", plural: "outputs", countField: "outputs", field: "outputs",
                  counts: 1...Mixer.channelLimit, flag: "--outputs",
                  place: { m, _ in .output(m) }, count: \.outputCount),
        StripKind(.master, .single, head: "master", plural: "masters", countField: nil, field: "master",
                  place: { _, _ in .master }, count: { _ in 1 }),
        StripKind(.dca, .numbered, head: "dca", plural: "DCAs", countField: "dcas", field: "dcas",
                  counts: 0...Groups.most, flag: "--dcas",
                  place: { g, _ in .dca(g) }, count: { $0.dcas.count }),
        StripKind(.muteGroup, .numbered, head: "mutegroup", plural: "mute groups", countField: "mutegroups",
                  field: "mutegroups", counts: 0...Groups.most, flag: "--mute-groups",
                  place: { g, _ in .muteGroup(g) }, count: { $0.muteGroups.count }),
    ] + talkbackKinds + listenKinds

    /// Why `count` is not a count `serve`'s `flag` takes ("--dcas must be
    /// 0-32 (got 40)"), or nil: the limits its kind describes.
    public static func countProblem(flag: String, _ count: Int) -> String? {
        builtInKinds.first { $0.flag == flag }.flatMap { $0.countProblem(count) }
    }

    /// The counts `serve` is given for the kinds kept in banks, each by its
    /// kind's flag (`--testbuses 3` or `--testbuses=3`), from the arguments
    /// `serve` does not know itself; a kind not named has none. An argument
    /// that is no such flag, a flag without a whole number, or a count out
    /// of its kind's limits is the error's reason.
    public func bankCounts(_ arguments: [String]) throws(CountError) -> [Parameter.Strip: Int] {
        var counts: [Parameter.Strip: Int] = [:]
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            // After `--`, nothing is a flag: what follows is unexpected.
            if argument == "--" {
                if let next = rest.first { throw CountError(reason: "Unexpected argument '\(next)'") }
                break
            }
            let (flag, attached) = argument.firstIndex(of: "=").map {
                (String(argument[..<$0]), String(argument[argument.index(after: $0)...]))
            } ?? (argument, nil)
            guard flag.hasPrefix("--"), let kind = kinds.first(where: { $0.storage == .bank && $0.flag == flag }) else {
                throw flag.hasPrefix("-") ? CountError(reason: "Unknown option '\(flag)'", unknown: flag)
                    : CountError(reason: "Unexpected argument '\(argument)'")
            }
            guard let text = attached ?? rest.popFirst(), let count = Int(text) else {
                throw CountError(reason: "\(flag) takes a number of \(kind.plural)")
            }
            if let problem = kind.countProblem(count) { throw CountError(reason: problem) }
            counts[kind.strip] = count
        }
        return counts
    }

    /// The counts of the kinds kept in banks a rig has when their flags are
    /// not given (`StripKind.defaultCount`: two talkbacks).
    public var defaultBankCounts: [Parameter.Strip: Int] {
        Dictionary(uniqueKeysWithValues: kinds.filter { $0.storage == .bank && $0.defaultCount > 0 }
            .map { ($0.strip, $0.defaultCount) })
    }

    /// Why a count is not one a kind's flag takes.
    public struct CountError: Error, CustomStringConvertible {
        public let reason: String
        /// The option no kind has, if that is the error.
        public var unknown: String?
        public var description: String { reason }
    }

    /// The description of `strip`'s kind.
    public func kind(_ strip: Parameter.Strip) -> StripKind? {
        kinds.first { $0.strip == strip }
    }

    /// How many strips of each numbered kind `scene` has.
    public func counts(of scene: Scene) -> [Parameter.Strip: Int] {
        var counts: [Parameter.Strip: Int] = [:]
        for kind in kinds where kind.shape == .numbered { counts[kind.strip] = kind.count(scene) }
        return counts
    }

    /// A new scene (`Scene.init`'s defaults) with `counts` strips of each
    /// numbered kind (inputs and outputs at least one; a kind not named,
    /// none: a bank only for a kind named, even with none, so that fitting
    /// a scene to it empties it).
    public func scene(_ counts: [Parameter.Strip: Int]) -> Scene {
        var scene = Scene(inputs: counts[.source] ?? 1, outputs: counts[.output] ?? 1, dcas: counts[.dca] ?? 0,
                          muteGroups: counts[.muteGroup] ?? 0)
        for kind in kinds where kind.storage == .bank {
            guard let count = counts[kind.strip] else { continue }
            scene.banks[kind.strip.name] = Bank(count: count, blank: blank(kind.strip))
        }
        return scene
    }

    /// A kept strip's values as they start: each of its parameters' defaults.
    public func blank(_ strip: Parameter.Strip) -> [String: Setting] {
        var blank: [String: Setting] = [:]
        for number in numbers(of: strip) { blank[parameters[number].name] = parameters[number].defaultValue }
        return blank
    }

    /// Every place of a strip's parameters in `scene` (its size and groups).
    public func places(_ strip: Parameter.Strip, of scene: Scene) -> [Parameter.Place] {
        places(strip, counts: counts(of: scene))
    }

    /// Every place of a strip's parameters on a rig of this size, with this many groups.
    public func places(_ strip: Parameter.Strip, inputs: Int, outputs: Int, dcas: Int = 0,
                       muteGroups: Int = 0) -> [Parameter.Place] {
        places(strip, counts: [.source: inputs, .output: outputs, .dca: dcas, .muteGroup: muteGroups])
    }

    /// Every place of a strip's parameters with `counts` strips of each numbered kind.
    public func places(_ strip: Parameter.Strip, counts: [Parameter.Strip: Int]) -> [Parameter.Place] {
        guard let kind = kind(strip) else { return [] }
        func each(_ strip: Parameter.Strip) -> [Int] { (0..<max(0, counts[strip] ?? 0)).map { $0 + 1 } }
        switch kind.shape {
        case .numbered: return each(strip).map { kind.place($0, 0) }
        case .single: return [kind.place(1, 0)]
        case .crosspoint: return each(.source).flatMap { n in each(.output).map { kind.place(n, $0) } }
        case .membership(let owner, let group, _): return each(owner).flatMap { n in each(group).map { kind.place(n, $0) } }
        }
    }
}

extension Catalogue {
    /// `target` with what `kept` has of the rig's own (`Parameter.Storage.rig`:
    /// the wiring, the outputs' EQ and limiters) wherever both have the
    /// strip, and `kept`'s strips of the kinds kept in banks that `target`
    /// has none of (a preset holds nothing of the talkbacks): a scene from a
    /// preset, which holds none of it, put on a rig.
    public func keepingRig(of kept: Scene, in target: Scene) -> Scene {
        var scene = target
        for (name, bank) in kept.banks where (target.banks[name]?.count ?? 0) == 0 { scene.banks[name] = bank }
        for parameter in parameters where parameter.storage == .rig {
            let there = Set(places(parameter.strip, of: kept))
            for place in places(parameter.strip, of: target) where there.contains(place) {
                parameter.set(&scene, place, parameter.get(kept, place))
            }
        }
        return scene
    }
}
