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
///
/// and the commands are the rig's own:
///
///     /matrix/map   /matrix/clear   /status   /ping
///     /preset/{save,recall,list,delete,rename,undo,current}   /preset/recall/{name}
///     /safe/source/{n}   /safe/output/{m}   /safe/master
///     /subscribe   /unsubscribe   /meters/{subscribe,unsubscribe,rate}
public struct AddressSpace: Sendable {
    public let inputs: Int
    public let outputs: Int
    public let catalogue: Catalogue
    /// Per strip, every form's last part, for the literal fast path.
    let literalLeaves: [Parameter.Strip: [(leaf: [UInt8], number: Int, form: Target.Form)]]

    public init(inputs: Int, outputs: Int, catalogue: Catalogue = Catalogue()) {
        self.inputs = inputs
        self.outputs = outputs
        self.catalogue = catalogue
        var leaves: [Parameter.Strip: [(leaf: [UInt8], number: Int, form: Target.Form)]] = [:]
        for strip in Parameter.Strip.allCases {
            leaves[strip] = catalogue.numbers(of: strip).flatMap { number in
                (catalogue.parameters[number].isLevel ? [Target.Form.linear, .decibels, .fader] : [.plain]).map {
                    (Array(Self.leaf(catalogue.parameters[number].name, $0).utf8), number, $0)
                }
            }
        }
        literalLeaves = leaves
    }

    static func leaf(_ name: String, _ form: Target.Form) -> String {
        switch form {
        case .plain, .linear: name
        case .decibels: "db"
        case .fader: "fader"
        }
    }

    public enum ResolveError: Error, Equatable, CustomStringConvertible {
        case unknownAddress
        case outOfRange(what: String, number: Int, limit: Int)

        public var description: String {
            switch self {
            case .unknownAddress: "unknown address"
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

    /// `resolve` the general way: part by part, every part possibly a pattern.
    func resolveByPattern(_ address: String) -> Result<[Target], ResolveError> {
        let parts = address.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].isEmpty, !parts.dropFirst().contains(where: \.isEmpty) else {
            return .failure(.unknownAddress)
        }
        let path = Array(parts.dropFirst())
        var targets: [Target] = []
        do {
            for head in ["source", "matrix", "output", "master", "status", "ping", "preset", "safe", "subscribe", "unsubscribe", "meters"] where matches(path[0], head) {
                targets += try resolve(head, Array(path.dropFirst()))
            }
        } catch {
            return .failure(error)
        }
        return targets.isEmpty ? .failure(.unknownAddress) : .success(targets)
    }

    private func resolve(_ head: String, _ rest: [Substring]) throws(ResolveError) -> [Target] {
        switch (head, rest.count) {
        case ("status", 0): return [.status]
        case ("ping", 0): return [.ping]
        case ("subscribe", 0): return [.subscribe]
        case ("unsubscribe", 0): return [.unsubscribe]
        case ("meters", 1):
            return (matches(rest[0], "subscribe") ? [.metersSubscribe] : [])
                + (matches(rest[0], "unsubscribe") ? [.metersUnsubscribe] : [])
                + (matches(rest[0], "rate") ? [.metersRate] : [])
        case ("source", 2):
            return parameters(.source, leaf: rest[1], at: try channels(rest[0], "source", inputs).map { .source($0) })
        case ("output", 2):
            return parameters(.output, leaf: rest[1], at: try channels(rest[0], "output", outputs).map { .output($0) })
        case ("master", 1):
            return parameters(.master, leaf: rest[0], at: [.master])
        case ("matrix", 1):
            // Clearing is an action: never reached through a pattern.
            return (matches(rest[0], "map") ? [.matrixMap] : []) + (rest[0] == "clear" ? [.matrixClear] : [])
        case ("matrix", 2), ("matrix", 3):
            let leaf = rest.count == 3 ? rest[2] : nil
            guard leaves(of: .crosspoint).contains(where: { matches(leaf, $0.leaf) }) else { return [] }
            let ins = try channels(rest[0], "input", inputs)
            let outs = try channels(rest[1], "output", outputs)
            return parameters(.crosspoint, leaf: leaf,
                              at: ins.flatMap { i in outs.map { Parameter.Place.crosspoint(input: i, output: $0) } })
        case ("preset", 1):
            return Target.PresetCommand.allCases.filter { matches(rest[0], $0.rawValue) }.map { .preset($0) }
        case ("preset", 2):
            // A scene on a button. An action, like clearing: "recall" is never
            // a pattern; the name is taken as it is written, and checked
            // as `/preset/recall` checks it.
            return rest[0] == "recall" ? [.recallPreset(String(rest[1]))] : []
        case ("safe", 1):
            return matches(rest[0], "master") ? [.safe(.master)] : []
        case ("safe", 2):
            let sources = matches(rest[0], "source") ? try channels(rest[1], "source", inputs).map { Target.safe(.source($0)) } : []
            let outputs = matches(rest[0], "output") ? try channels(rest[1], "output", outputs).map { Target.safe(.output($0)) } : []
            return sources + outputs
        default:
            return []
        }
    }

    /// The forms of `strip`'s parameters whose last part `leaf` names (nil:
    /// the form without one), at each place.
    private func parameters(_ strip: Parameter.Strip, leaf: Substring?, at places: [Parameter.Place]) -> [Target] {
        let named = leaves(of: strip).filter { matches(leaf, $0.leaf) }
        return places.flatMap { place in named.map { Target.parameter($0.number, place, $0.form) } }
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

    /// A missing part names only an empty leaf; an empty leaf needs a missing part.
    private func matches(_ part: Substring?, _ name: String) -> Bool {
        guard let part else { return name.isEmpty }
        return !name.isEmpty && matches(part, name)
    }

    private func matches(_ part: Substring, _ name: String) -> Bool {
        OSCAddressPattern.isPattern(part) ? OSCAddressPattern.matches(part, name) : part == name
    }
}
