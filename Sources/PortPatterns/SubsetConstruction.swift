/// Makes a `MatchTable` from a `ThompsonNFA` by the subset construction,
/// eagerly: each DFA row is a set of NFA states, and for each byte class
/// its successor is found once, here, not while matching. Every unit of
/// work is counted against `PatternLimits.steps`, and rows against
/// `dfaStates` and `tableEntries`, so that a pattern whose DFA would blow
/// up (`(a|b)*a(a|b){12}` needs 2^13 rows) is refused within the caps'
/// time instead of built.
///
/// The search is unanchored: after every byte a fresh thread starts at
/// the NFA's start, and a `^` lets it through only at the very start
/// (the first row's set is closed with `^` open, all later ones with `^`
/// shut; a thread held at a shut `^` can never go on, so it is dropped).
/// A `$` holds its thread in the set; at the end of the name the row's
/// `$` threads go on, and the row accepts if one reaches the match.
struct SubsetConstruction {
    private typealias State = ThompsonNFA.State
    private let states: [State]
    private let sets: [ByteSet]
    private let start: Int32
    private let classes: ByteClasses

    /// Marks the NFA states visited in the current closure: equal to
    /// `generation` when visited, so nothing is cleared between closures.
    private var stamp: [UInt32]
    private var generation: UInt32 = 0
    private var stack: [Int32] = []
    /// The consume and `$` states the current closure reached.
    private var gathered: [UInt16] = []
    private var steps = 0
    /// The states a fresh thread from the start reaches without reading
    /// (`^` shut): added to every successor, so found once.
    private var restart: [UInt16] = []
    private var stored = 0

    /// Per row, its NFA states (sorted); row 0, the matched row, has none.
    private var members: [[UInt16]] = [[]]
    /// Rows by their sets, to find a set made before.
    private var rows: [[UInt16]: UInt16] = [:]
    private var transitions: [UInt16]
    private var acceptsAtEnd = [true]

    init(_ nfa: ThompsonNFA) {
        states = nfa.states
        sets = nfa.sets
        start = nfa.start
        classes = ByteClasses(nfa.sets)
        stamp = [UInt32](repeating: 0, count: nfa.states.count)
        transitions = [UInt16](repeating: MatchTable.matched, count: classes.count)
    }

    /// The DFA, or the cap it would pass.
    mutating func table() throws(PortPattern.Invalid) -> MatchTable {
        begin()
        // A pattern that matches the empty string without `^` matches
        // every name: then every successor is the matched row.
        if try follow(start, passStart: false) { return try matchedAlways() }
        restart = gathered
        begin()
        var first = MatchTable.matched
        if try !follow(start, passStart: true) {
            gathered.sort()
            first = try row(initial: true)
        }
        var row = 1
        while row < members.count {
            for column in 0..<classes.count {
                transitions[row * classes.count + column] = try successor(of: row, on: classes.representatives[column])
            }
            row += 1
        }
        return MatchTable(classOf: classes.classOf, classCount: classes.count, start: first,
                          transitions: transitions, acceptsAtEnd: acceptsAtEnd)
    }

    /// The table of a pattern that matches every name.
    private func matchedAlways() -> MatchTable {
        MatchTable(classOf: classes.classOf, classCount: classes.count, start: MatchTable.matched,
                   transitions: transitions, acceptsAtEnd: acceptsAtEnd)
    }

    private mutating func begin() {
        generation += 1
        gathered.removeAll(keepingCapacity: true)
    }

    /// The row after `row` reads `byte`: its threads that consume the
    /// byte, and a fresh thread from the start.
    private mutating func successor(of row: Int, on byte: UInt8) throws(PortPattern.Invalid) -> UInt16 {
        begin()
        for member in members[row] {
            try count(1)
            let state = states[Int(member)]
            if state.kind == .consume && sets[Int(state.other)].contains(byte) {
                if try follow(state.next, passStart: false) { return MatchTable.matched }
            }
        }
        for member in restart where stamp[Int(member)] != generation {
            stamp[Int(member)] = generation
            gathered.append(member)
        }
        try count(restart.count)
        gathered.sort()
        if let known = rows[gathered] { return known }
        return try self.row(initial: false)
    }

    /// A new row for the set just gathered. The first row is not entered
    /// in `rows`: only it may pass a `^` at the end (an empty name), so a
    /// later row with the same set is another row.
    private mutating func row(initial: Bool) throws(PortPattern.Invalid) -> UInt16 {
        guard members.count < PatternLimits.dfaStates else {
            throw PortPattern.Invalid(reason: "pattern too complex: more than \(PatternLimits.dfaStates) DFA states")
        }
        guard (members.count + 1) * classes.count <= PatternLimits.tableEntries else {
            throw PortPattern.Invalid(reason: "pattern too complex: more than \(PatternLimits.tableEntries) table entries (DFA states × \(classes.count) byte classes)")
        }
        let set = gathered
        stored += set.count
        guard stored <= PatternLimits.rowMembers else {
            throw PortPattern.Invalid(reason: "pattern too complex: more than \(PatternLimits.rowMembers) NFA states held in its DFA's rows")
        }
        let index = UInt16(members.count)
        members.append(set)
        if !initial { rows[set] = index }
        transitions.append(contentsOf: repeatElement(MatchTable.matched, count: classes.count))
        acceptsAtEnd.append(try acceptsAtEnd(set, initial: initial))
        return index
    }

    /// Whether a name ending with these threads matches: a `$` goes on at
    /// the end, and a `^` too when nothing has been read (`$^` matches "").
    private mutating func acceptsAtEnd(_ set: [UInt16], initial: Bool) throws(PortPattern.Invalid) -> Bool {
        begin()
        for member in set where states[Int(member)].kind == .lineEnd {
            if try follow(Int32(member), passStart: initial, passEnd: true) { return true }
        }
        return false
    }

    /// Follows the moves that consume nothing from `entry`, gathering the
    /// states it reaches that wait for a byte (or for the end); true as
    /// soon as it reaches the match.
    private mutating func follow(_ entry: Int32, passStart: Bool, passEnd: Bool = false) throws(PortPattern.Invalid) -> Bool {
        stack.append(entry)
        while let index = stack.popLast() {
            if stamp[Int(index)] == generation { continue }
            stamp[Int(index)] = generation
            try count(1)
            let state = states[Int(index)]
            switch state.kind {
            case .consume: gathered.append(UInt16(index))
            case .split: stack.append(state.next); stack.append(state.other)
            case .lineStart: if passStart { stack.append(state.next) }
            case .lineEnd: if passEnd { stack.append(state.next) } else { gathered.append(UInt16(index)) }
            case .match:
                stack.removeAll(keepingCapacity: true)
                return true
            }
        }
        return false
    }

    private mutating func count(_ work: Int) throws(PortPattern.Invalid) {
        steps += work
        guard steps <= PatternLimits.steps else {
            throw PortPattern.Invalid(reason: "pattern too complex: more than \(PatternLimits.steps) steps to build its DFA")
        }
    }
}
