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
    /// How many strips of each numbered kind the rig has (`Catalogue.counts`).
    public let counts: [Parameter.Strip: Int]
    public let catalogue: Catalogue
    /// Per strip, every way of addressing its parameters (`AddressSpace+Forms`).
    let leavesByStrip: [Parameter.Strip: [Leaf]]
    /// The same with their parts as bytes, for the literal fast path.
    let literalLeaves: [Parameter.Strip: [(parts: [[UInt8]], leaf: Leaf)]]
    /// The numbered and single kinds by the bytes of their heads, for the literal fast path.
    let literalHeads: [(head: [UInt8], kind: StripKind)]
    /// The first parts of addresses, in the order a pattern reaching several
    /// resolves to (so the order of its targets, and the first, which picks
    /// what the message does): the kinds' in the catalogue's order, then
    /// the commands' in the catalogue's order, the safes after the presets.
    let heads: [String]

    public var inputs: Int { counts[.source] ?? 0 }
    public var outputs: Int { counts[.output] ?? 0 }
    /// The rig's DCAs and mute groups (`serve --dcas`, `--mute-groups`).
    public var dcas: Int { counts[.dca] ?? 0 }
    public var muteGroups: Int { counts[.muteGroup] ?? 0 }

    public init(inputs: Int, outputs: Int, dcas: Int = 0, muteGroups: Int = 0, catalogue: Catalogue = Catalogue()) {
        self.init(counts: [.source: inputs, .output: outputs, .dca: dcas, .muteGroup: muteGroups], catalogue: catalogue)
    }

    /// The address space of a rig with `counts` strips of each numbered kind.
    public init(counts: [Parameter.Strip: Int], catalogue: Catalogue) {
        self.counts = counts
        self.catalogue = catalogue
        var leaves: [Parameter.Strip: [Leaf]] = [:]
        for kind in catalogue.kinds { leaves[kind.strip] = Self.leaves(of: kind.strip, in: catalogue) }
        leavesByStrip = leaves
        literalLeaves = leaves.mapValues { $0.map { (parts: $0.parts.map { Array($0.utf8) }, leaf: $0) } }
        literalHeads = catalogue.kinds.compactMap { kind in
            guard let head = kind.head, kind.shape == .numbered || kind.shape == .single else { return nil }
            return (Array(head.utf8), kind)
        }
        var heads = catalogue.kinds.compactMap(\.head)
        for command in Self.commandPaths where !heads.contains(command.parts[0]) {
            heads.append(command.parts[0])
            if command.parts[0] == "preset" { heads.append("safe") }
        }
        self.heads = heads
    }

    public enum ResolveError: Error, Equatable, CustomStringConvertible {
        case unknownAddress
        case outOfRange(what: String, number: Int, limit: Int)
        /// A number for a kind the rig has none of: "no DCAs on this rig".
        case noneOnThisRig(plural: String)

        public var description: String {
            switch self {
            case .unknownAddress: "unknown address"
            case .noneOnThisRig(let plural): "no \(plural) on this rig"
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
            for head in heads where matches(path[0], head) {
                targets += try resolve(head, Array(path.dropFirst()))
                targets += commands(head, path)
            }
        } catch {
            return .failure(error)
        }
        return targets.isEmpty ? .failure(.unknownAddress) : .success(targets)
    }

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
        if let kind = catalogue.kinds.first(where: { $0.head == head }) {
            switch (kind.shape, rest.count) {
            case (.numbered, 2...5):
                let numbers = try channels(rest[0], kind)
                return parameters(kind.strip, rest.dropFirst(), at: numbers.map { kind.place($0, 0) })
                    + (rest.count == 3 ? try memberships(of: kind.strip, numbers, rest[1], rest[2]) : [])
            case (.single, 1...4):
                return parameters(kind.strip, rest[...], at: [kind.place(1, 0)])
            default:
                break
            }
        }
        switch (head, rest.count) {
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
            return catalogue.safes.filter { $0.isSingle && matches(rest[0], $0.kind.name) }
                .map { .safe(Target.Safe($0.kind, 1)) }
        case ("safe", 2):
            // In the catalogue's order. A mix safe is never reached by a
            // pattern (`RecallSafe.patterned`): `/safe/*/*` is every recall
            // safe as before mix safes, not every performer's mix as well.
            // A pattern for the kind (`/safe/*/3`) reaches the kinds that
            // have that strip; the number is an error only if none has it.
            var targets: [Target] = []
            var refusal: ResolveError?
            for safe in catalogue.safes where !safe.isSingle {
                guard safe.patterned ? matches(rest[0], safe.kind.name) : rest[0] == safe.kind.name,
                      let kind = catalogue.kind(safe.strip) else { continue }
                do {
                    targets += try channels(rest[1], kind).map { .safe(Target.Safe(safe.kind, $0)) }
                } catch {
                    guard OSCAddressPattern.isPattern(rest[0]) else { throw error }
                    refusal = refusal ?? error
                }
            }
            if targets.isEmpty, let refusal { throw refusal }
            return targets
        default:
            return []
        }
    }

    /// The memberships `/source/{n}/dca/{g}`, `/source/{n}/mutegroup/{g}`
    /// and `/talkback/{t}/output/{m}` name for `numbers` of `strip` (their owner).
    private func memberships(of strip: Parameter.Strip, _ numbers: [Int], _ field: Substring,
                             _ group: Substring) throws(ResolveError) -> [Target] {
        var targets: [Target] = []
        for kind in catalogue.kinds {
            guard case .membership(let owner, let groupStrip, let name) = kind.shape, strip == owner, matches(field, name) else { continue }
            guard let groupKind = catalogue.kind(groupStrip) else { continue }
            let places = try channels(group, groupKind).flatMap { g in
                numbers.map { kind.place($0, g) }
            }
            targets += parameters(kind.strip, [], at: places)
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
    private func channels(_ part: Substring, _ kind: StripKind) throws(ResolveError) -> [Int] {
        let limit = counts[kind.strip] ?? 0
        do {
            return try channels(part, kind.strip.noun, limit)
        } catch where limit == 0 {
            throw .noneOnThisRig(plural: kind.plural)
        }
    }

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
