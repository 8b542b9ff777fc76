import OSC

/// The rig's OSC address space: turns an incoming address, which may be an
/// OSC 1.0 pattern, into the concrete targets it names.
///
///     /source/{n}/{volume,db,fader,pan,mute,solo,name}
///     /matrix/{in}/{out}   /matrix/{in}/{out}/{db,fader}   /matrix/map   /matrix/clear
///     /output/{m}/{volume,db,fader,mute,name}
///     /master/{volume,db,fader,mute}
///     /status   /ping
///     /preset/{save,recall,list,delete,rename,undo,current}
///     /safe/source/{n}   /safe/output/{m}   /safe/master
///     /subscribe   /unsubscribe   /meters/subscribe   /meters/unsubscribe
public struct AddressSpace: Sendable {
    public let inputs: Int
    public let outputs: Int

    public init(inputs: Int, outputs: Int) {
        self.inputs = inputs
        self.outputs = outputs
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
        case ("source", 2):
            return try channels(rest[0], "source", inputs).flatMap { n in
                Target.SourceParameter.allCases.filter { matches(rest[1], $0.rawValue) }.map { .source(n, $0) }
            }
        case ("output", 2):
            return try channels(rest[0], "output", outputs).flatMap { m in
                Target.OutputParameter.allCases.filter { matches(rest[1], $0.rawValue) }.map { .output(m, $0) }
            }
        case ("master", 1):
            return Target.MasterParameter.allCases.filter { matches(rest[0], $0.rawValue) }.map { .master($0) }
        case ("matrix", 1):
            // Clearing is an action: never reached through a pattern.
            return (matches(rest[0], "map") ? [.matrixMap] : []) + (rest[0] == "clear" ? [.matrixClear] : [])
        case ("matrix", 2), ("matrix", 3):
            let units: [Target.LevelUnit] = rest.count == 2 ? [.linear]
                : [(Target.LevelUnit.decibels, "db"), (.fader, "fader")].filter { matches(rest[2], $0.1) }.map(\.0)
            if units.isEmpty { return [] }
            let ins = try channels(rest[0], "input", inputs)
            let outs = try channels(rest[1], "output", outputs)
            return ins.flatMap { i in outs.flatMap { o in units.map { .crosspoint(input: i, output: o, $0) } } }
        case ("preset", 1):
            return Target.PresetCommand.allCases.filter { matches(rest[0], $0.rawValue) }.map { .preset($0) }
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
