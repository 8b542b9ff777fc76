import Catalogue
import OSC

/// The rig's OSC address space: turns an incoming address, which may be an
/// OSC 1.0 pattern, into the concrete targets it names. The parameters'
/// addresses come from the catalogue:
///
///     /source/{n}/{name}   /source/{n}/{db,fader}   (levels)
///     /matrix/{in}/{out}   /matrix/{in}/{out}/{db,fader}
///     /output/{m}/{name}   /output/{m}/{db,fader}
///     /master/{name}       /master/{db,fader}
///     /dca/{g}/{name}      /dca/{g}/{db,fader}      /mutegroup/{g}/{name}
///     /source/{n}/dca/{g}  /source/{n}/mutegroup/{g}  (memberships)
///
/// each continuous one also with `/delta` after it, for relative steps,
/// `/z` or `/touch` for a finger on its control, and `/current` for where it
/// is while it fades (these suffixes are never matched by a pattern); the
/// commands from the catalogue's table (`Catalogue+Commands.swift`), and
/// the safes:
///
///     /preset/recall/{name}
///     /safe/source/{n}   /safe/output/{m}   /safe/mix/{m}   /safe/master   /safe/dca/{g}
public struct AddressSpace: Sendable {
    public let inputs: Int
    public let outputs: Int
    /// The rig's DCAs and mute groups (`serve --dcas`, `--mute-groups`).
    public let dcas: Int
    public let muteGroups: Int
    public let catalogue: Catalogue
    /// Per strip, every way of addressing its parameters (`AddressSpace+Forms`).
    let leavesByStrip: [Parameter.Strip: [Leaf]]
    /// The same with their parts as bytes, for the literal fast path.
    let literalLeaves: [Parameter.Strip: [(parts: [[UInt8]], leaf: Leaf)]]

    public init(inputs: Int, outputs: Int, dcas: Int = 0, muteGroups: Int = 0, catalogue: Catalogue = Catalogue()) {
        self.inputs = inputs
        self.outputs = outputs
        self.dcas = dcas
        self.muteGroups = muteGroups
        self.catalogue = catalogue
        var leaves: [Parameter.Strip: [Leaf]] = [:]
        for strip in Parameter.Strip.allCases { leaves[strip] = Self.leaves(of: strip, in: catalogue) }
        leavesByStrip = leaves
        literalLeaves = leaves.mapValues { $0.map { (parts: $0.parts.map { Array($0.utf8) }, leaf: $0) } }
    }

    public enum ResolveError: Error, Equatable, CustomStringConvertible {
        case unknownAddress
        case outOfRange(what: String, number: Int, limit: Int)

        public var description: String {
            switch self {
            case .unknownAddress: "unknown address"
            case .outOfRange(let what, _, 0):
                "no \(what == "DCA" ? "DCAs" : what + "s") on this rig"
            case .outOfRange(let what, let number, let limit):
                "\(what) \(number) out of range (1-\(limit))"
            }
        }
    }

    /// Every target `address` names, in a stable order. A literal channel
    /// number beyond the rig is an error of its own, so that `/source/9/mute`
    /// on an 8-input rig says so rather than "unknown address".
    public func resolve(_ address: String) -> Result<[Target], ResolveError> {
        if let target = literalTarget(address) { return .success([target]) }
        return resolveByPattern(address)
    }

    /// What TouchOSC sends of its own accord: the page shown (`/1`, `/2`, …)
    /// and the accelerometer (`/accxyz`, many times a second). Not ours, and
    /// no mistake: ignored without a reply or a log line.
    public static func isTabletChatter(_ address: String) -> Bool {
        guard address.hasPrefix("/") else { return false }
        let name = address.dropFirst()
        return name == "accxyz" || (!name.isEmpty && name.count <= 3 && name.allSatisfy { $0.isASCII && $0.isNumber })
    }

    /// `resolve` the general way: part by part, every part possibly a pattern.
    func resolveByPattern(_ address: String) -> Result<[Target], ResolveError> {
        let parts = address.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].isEmpty, !parts.dropFirst().contains(where: \.isEmpty) else {
            return .failure(.unknownAddress)
        }
        let path = Array(parts.dropFirst())
        var targets: [Target] = []
        do {
            for head in Self.heads where matches(path[0], head) {
                targets += try resolve(head, Array(path.dropFirst()))
                targets += commands(head, path)
            }
        } catch {
            return .failure(error)
        }
        return targets.isEmpty ? .failure(.unknownAddress) : .success(targets)
    }

    /// The first parts of addresses, in the order a pattern reaching several
    /// resolves to (so the order of its targets, and the first, which picks
    /// what the message does): the strips, then the commands' in the
    /// catalogue's order, the safes after the presets.
    private static let heads: [String] = {
        var heads = ["source", "matrix", "output", "master", "dca", "mutegroup"]
        for command in commandPaths where !heads.contains(command.parts[0]) {
            heads.append(command.parts[0])
            if command.parts[0] == "preset" { heads.append("safe") }
        }
        return heads
    }()

    /// The catalogue's commands under `head` that `path` names, in the
    /// table's order: every part matching (a pattern may name several); an
    /// exact one's parts after the head written out.
    private func commands(_ head: String, _ path: [Substring]) -> [Target] {
        Self.commandPaths.filter { command in
            command.parts[0] == head && command.parts.count == path.count
                && zip(path, command.parts).dropFirst().allSatisfy { command.exact ? $0 == $1 : matches($0, $1) }
        }.map { .command($0.name) }
    }

    /// Each command's address in parts, made once.
    private static let commandPaths: [(name: Command.Name, parts: [String], exact: Bool)] =
        Catalogue.commands(inputs: 1, outputs: 1).map { command in
            (command.name, command.address.split(separator: "/").map(String.init), command.exact)
        }

    private func resolve(_ head: String, _ rest: [Substring]) throws(ResolveError) -> [Target] {
        switch (head, rest.count) {
        case ("source", 2...3):
            let sources = try channels(rest[0], "source", inputs)
            return parameters(.source, rest.dropFirst(), at: sources.map { .source($0) })
                + (rest.count == 3 ? try memberships(sources, rest[1], rest[2]) : [])
        case ("dca", 2...3):
            return parameters(.dca, rest.dropFirst(), at: try channels(rest[0], "DCA", dcas).map { .dca($0) })
        case ("mutegroup", 2...3):
            return parameters(.muteGroup, rest.dropFirst(),
                              at: try channels(rest[0], "mute group", muteGroups).map { .muteGroup($0) })
        case ("output", 2...3):
            return parameters(.output, rest.dropFirst(), at: try channels(rest[0], "output", outputs).map { .output($0) })
        case ("master", 1...2):
            return parameters(.master, rest[...], at: [.master])
        case ("matrix", 2...4):
            let tail = rest.dropFirst(2)
            guard leavesByStrip[.crosspoint, default: []].contains(where: { matches(tail, $0) }) else { return [] }
            let ins = try channels(rest[0], "input", inputs)
            let outs = try channels(rest[1], "output", outputs)
            return parameters(.crosspoint, tail,
                              at: ins.flatMap { i in outs.map { Parameter.Place.crosspoint(input: i, output: $0) } })
        case ("preset", 2):
            // A scene on a button. An action, like clearing: "recall" is never
            // a pattern; the name is taken as it is written, and checked
            // as `/preset/recall` checks it.
            return rest[0] == "recall" ? [.recallPreset(String(rest[1]))] : []
        case ("safe", 1):
            return matches(rest[0], "master") ? [.safe(.master)] : []
        case ("safe", 2):
            let dcas = matches(rest[0], "dca") ? try channels(rest[1], "DCA", self.dcas).map { Target.safe(.dca($0)) } : []
            let sources = matches(rest[0], "source") ? try channels(rest[1], "source", inputs).map { Target.safe(.source($0)) } : []
            let outputs = matches(rest[0], "output") ? try channels(rest[1], "output", outputs).map { Target.safe(.output($0)) } : []
            // "mix" is never reached by a pattern: `/safe/*/*` is every recall
            // safe as before mix safes, not every performer's mix as well.
            let mixes = rest[0] == "mix" ? try channels(rest[1], "output", self.outputs).map { Target.safe(.mix($0)) } : []
            return sources + outputs + mixes + dcas
        default:
            return []
        }
    }

    /// The memberships `/source/{n}/dca/{g}` and `/source/{n}/mutegroup/{g}`
    /// name for `sources`.
    private func memberships(_ sources: [Int], _ kind: Substring, _ group: Substring) throws(ResolveError) -> [Target] {
        var targets: [Target] = []
        if matches(kind, "dca") {
            let places = try channels(group, "DCA", dcas).flatMap { g in sources.map { Parameter.Place.dcaMember(source: $0, dca: g) } }
            targets += parameters(.dcaMember, [], at: places)
        }
        if matches(kind, "mutegroup") {
            let places = try channels(group, "mute group", muteGroups).flatMap { g in
                sources.map { Parameter.Place.muteGroupMember(source: $0, group: g) }
            }
            targets += parameters(.muteGroupMember, [], at: places)
        }
        return targets
    }

    /// The forms (and steps) of `strip`'s parameters that the parts after
    /// the place name, at each place.
    private func parameters(_ strip: Parameter.Strip, _ tail: ArraySlice<Substring>,
                            at places: [Parameter.Place]) -> [Target] {
        let named = leavesByStrip[strip, default: []].filter { matches(tail, $0) }
        return places.flatMap { place in named.map { $0.target(at: place) } }
    }

    /// Whether the parts after a place name `leaf`: as many parts, each
    /// matching, and a step's `delta` written out (a pattern such as
    /// `/source/1/volume/*` must not turn a value into a step).
    private func matches(_ tail: ArraySlice<Substring>, _ leaf: Leaf) -> Bool {
        guard tail.count == leaf.parts.count else { return false }
        for (index, (part, name)) in zip(tail, leaf.parts).enumerated() {
            let isSuffix = leaf.role != .value && index == leaf.parts.count - 1
            guard isSuffix ? part == name : matches(part, name) else { return false }
        }
        return true
    }

    /// The channel numbers 1…limit that `part` names. A literal number is
    /// checked against the limit; a non-numeric literal names none.
    private func channels(_ part: Substring, _ what: String, _ limit: Int) throws(ResolveError) -> [Int] {
        if OSCAddressPattern.isPattern(part) {
            return (0..<limit).map { $0 + 1 }.filter { OSCAddressPattern.matches(part, String($0)) }
        }
        guard let number = Int(part), String(number) == part else { return [] }
        guard number >= 1 && number <= limit else {
            throw .outOfRange(what: what, number: number, limit: limit)
        }
        return [number]
    }

    private func matches(_ part: Substring, _ name: String) -> Bool {
        OSCAddressPattern.isPattern(part) ? OSCAddressPattern.matches(part, name) : part == name
    }
}
