/// The pattern as a Thompson NFA: one state per byte set, anchor and
/// choice, built backwards from the match state so that every piece knows
/// where it continues (no patch lists). Counted repetitions are expanded
/// into copies, which is why the count of states is checked against
/// `PatternLimits.nfaStates` before anything is built.
struct ThompsonNFA {
    /// One state. `next` is where it goes on; `other` is the second way
    /// out of a split, or the index of a consume state's byte set.
    struct State {
        enum Kind: UInt8 {
            /// Consumes one byte in `sets[other]`, then goes to `next`.
            case consume
            /// Goes to `next` and to `other` without consuming.
            case split
            /// `^`: goes on only at the start of the name.
            case lineStart
            /// `$`: goes on only at the end of the name.
            case lineEnd
            /// The pattern has matched.
            case match
        }
        var kind: Kind
        var next: Int32
        var other: Int32
    }

    private(set) var states: [State] = []
    /// The distinct byte sets, which consume states name by index: few
    /// even when repetitions copy a set many times, so the byte classes
    /// are found from these.
    private(set) var sets: [ByteSet] = []
    private var setIndex: [ByteSet: Int32] = [:]
    /// Where matching begins.
    private(set) var start: Int32 = 0

    init(_ pattern: PatternNode) throws(PortPattern.Invalid) {
        let cap = PatternLimits.nfaStates
        let count = pattern.stateCount(cap: cap) + 1
        guard count <= cap else {
            throw PortPattern.Invalid(reason: "pattern too complex: more than \(cap) NFA states (its repetitions expand to that many)")
        }
        states.reserveCapacity(count)
        let match = add(.match, next: -1)
        start = build(pattern, then: match)
    }

    private mutating func add(_ kind: State.Kind, next: Int32, other: Int32 = -1) -> Int32 {
        states.append(State(kind: kind, next: next, other: other))
        return Int32(states.count - 1)
    }

    /// The entry state of `node`, which continues at `then`.
    private mutating func build(_ node: PatternNode, then: Int32) -> Int32 {
        switch node {
        case .empty:
            return then
        case .bytes(let set):
            let index: Int32
            if let known = setIndex[set] { index = known } else {
                index = Int32(sets.count)
                sets.append(set)
                setIndex[set] = index
            }
            return add(.consume, next: then, other: index)
        case .start:
            return add(.lineStart, next: then)
        case .end:
            return add(.lineEnd, next: then)
        case .sequence(let parts):
            return parts.reversed().reduce(then) { build($1, then: $0) }
        case .choice(let parts):
            let entries = parts.map { build($0, then: then) }
            return entries.dropLast().reversed().reduce(entries[entries.count - 1]) { add(.split, next: $1, other: $0) }
        case .repeated(let body, let least, let most):
            var entry: Int32
            if let most {
                // The optional copies, innermost first: each either goes
                // through one more copy or skips to `then`.
                entry = then
                for _ in least..<most { entry = add(.split, next: build(body, then: entry), other: then) }
                for _ in 0..<least { entry = build(body, then: entry) }
            } else if least == 0 {
                entry = loop(body, then: then)
            } else {
                // `x{n,}`: n − 1 copies and `x+`, whose loop re-enters the last copy.
                let split = add(.split, next: -1, other: then)
                entry = build(body, then: split)
                states[Int(split)].next = entry
                for _ in 1..<least { entry = build(body, then: entry) }
            }
            return entry
        }
    }

    /// `x*`: a split that goes through `x` and back, or on to `then`.
    private mutating func loop(_ body: PatternNode, then: Int32) -> Int32 {
        let split = add(.split, next: -1, other: then)
        states[Int(split)].next = build(body, then: split)
        return split
    }
}
