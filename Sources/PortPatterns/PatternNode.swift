/// A parsed pattern: the syntax tree the parser makes and the NFA is built
/// from. Groups leave no node of their own: with `REG_NOSUB` nothing is
/// captured, so a group only decides what a repetition applies to.
indirect enum PatternNode: Sendable {
    /// Matches the empty string: `()`, an empty alternative, `x{0}`.
    case empty
    /// One byte from the set: a literal, `.` or a bracket expression.
    case bytes(ByteSet)
    /// `^`: only at the start of the name.
    case start
    /// `$`: only at the end of the name.
    case end
    /// One after the other.
    case sequence([PatternNode])
    /// Any one of them: `a|b|c`.
    case choice([PatternNode])
    /// `min` to `max` times (`max` nil: no limit): `* + ? {n} {n,} {n,m}`.
    case repeated(PatternNode, min: Int, max: Int?)

    /// How many NFA states the Thompson construction makes for this node,
    /// or any number above `cap` once it is clear that there are more. It
    /// is counted before anything is built, so that `((x{0,255}){0,255}){0,255}`
    /// is refused in microseconds instead of expanded; the sums saturate at
    /// `cap + 1`, so nested counts cannot overflow.
    func stateCount(cap: Int) -> Int {
        let over = cap + 1
        switch self {
        case .empty: return 0
        case .bytes, .start, .end: return 1
        case .sequence(let parts):
            return parts.reduce(0) { min(over, $0 + $1.stateCount(cap: cap)) }
        case .choice(let parts):
            // One split state for each alternative after the first.
            return parts.reduce(parts.count - 1) { min(over, $0 + $1.stateCount(cap: cap)) }
        case .repeated(let body, let least, let most):
            let one = body.stateCount(cap: cap)
            // `least` copies; then either a loop (the last copy and one
            // split, or a copy and a split for `*`) or one optional copy
            // and its split for each count between least and most.
            let extra = most.map { ($0 - least) * (one + 1) } ?? (least > 0 ? 1 : one + 1)
            return min(over, least * one + extra)
        }
    }
}
