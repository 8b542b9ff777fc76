/// A set of bytes (0–255): what one position of a pattern accepts, a
/// literal, `.` or a bracket expression. Four words of bits, so that
/// testing a byte is a shift and a mask, and two sets compare as values.
struct ByteSet: Hashable, Sendable {
    private var low: UInt64 = 0, midLow: UInt64 = 0, midHigh: UInt64 = 0, high: UInt64 = 0

    /// The empty set.
    init() {}

    /// One byte: a literal.
    init(byte: UInt8) { insert(byte) }

    /// Every byte but NUL: `.` (glibc's `RE_DOT_NOT_NULL`; a name never
    /// holds a NUL anyway, since matching stops at the first one as
    /// `regexec` does with a C string).
    static var dot: ByteSet {
        var set = ByteSet().inverted
        set.remove(0)
        return set
    }

    /// Every byte not in this set: a negated bracket expression `[^…]`,
    /// which in the C locale also takes the bytes of non-ASCII characters.
    var inverted: ByteSet {
        var set = ByteSet()
        set.low = ~low; set.midLow = ~midLow; set.midHigh = ~midHigh; set.high = ~high
        return set
    }

    func contains(_ byte: UInt8) -> Bool {
        let bit = UInt64(1) << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: return low & bit != 0
        case 1: return midLow & bit != 0
        case 2: return midHigh & bit != 0
        default: return high & bit != 0
        }
    }

    mutating func insert(_ byte: UInt8) {
        let bit = UInt64(1) << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: low |= bit
        case 1: midLow |= bit
        case 2: midHigh |= bit
        default: high |= bit
        }
    }

    mutating func remove(_ byte: UInt8) {
        let keep = ~(UInt64(1) << UInt64(byte & 63))
        switch byte >> 6 {
        case 0: low &= keep
        case 1: midLow &= keep
        case 2: midHigh &= keep
        default: high &= keep
        }
    }

    /// Adds every byte from `first` to `last`, both included.
    mutating func insert(_ first: UInt8, through last: UInt8) {
        for byte in first...last { insert(byte) }
    }

    mutating func formUnion(_ other: ByteSet) {
        low |= other.low; midLow |= other.midLow; midHigh |= other.midHigh; high |= other.high
    }
}
