/// The caps that bound what any accepted pattern costs to compile, to keep
/// and to match. A pattern that would pass one is refused, its reason
/// naming the cap ("pattern too complex: …"), rather than given time or
/// memory: the patch comes from any OSC client, and the supervisor that
/// compiles it must keep its 100 ms round.
///
/// Measured on the 2-core build machine (debug build; this module is
/// optimised even there, see Package.swift): reaching the step cap takes
/// about 3.5 ms, so no pattern compiles for longer; matching 1,000 names of
/// 100 bytes takes 0.35 ms for a pattern that never matches early. The
/// tables kept take at most 256 + 2 × 65,536 + 1,024 bytes (132,352), and
/// building them holds at most 128 KiB of row sets and a 24 KiB NFA besides.
/// `^system:capture_[0-9]+$`: 19 rows × 14 byte classes, 807 bytes, 0.3 ms
/// to compile and match 1,000 names.
enum PatternLimits {
    /// The largest count in `{n,m}`: the NFA holds a copy per count.
    static let repetition = 255
    /// NFA states after counted repetitions are expanded.
    static let nfaStates = 2048
    /// DFA states, each a row of the transition table.
    static let dfaStates = 1024
    /// Transition table entries (DFA states × byte classes), 2 bytes each.
    static let tableEntries = 65536
    /// NFA states kept in the DFA's rows (2 bytes each), summed over the
    /// rows: what building the table holds besides the table.
    static let rowMembers = 65536
    /// Units of work to build the DFA: an NFA state visited while following
    /// a set of states over one byte class (about 25 ns each, with the
    /// sorting and hashing of the sets they make).
    static let steps = 150_000
}
