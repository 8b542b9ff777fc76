/// A compiled pattern: a DFA over byte classes, every row made at
/// construction. Matching a name is one table lookup per byte, with no
/// allocation and no backtracking, so its time is linear in the name's
/// length whatever the pattern.
///
/// Row 0 is the state in which a match has been seen; it leads only to
/// itself, so matching stops there (`REG_NOSUB` asks only whether there is
/// a match, and a search matches anywhere). A name that ends elsewhere
/// matches when its row accepts at the end (a `$` that is then satisfied).
struct MatchTable: Sendable {
    /// The row in which a match has been seen.
    static let matched: UInt16 = 0

    /// The class of each byte (`ByteClasses`).
    let classOf: [UInt8]
    let classCount: Int
    /// The row matching begins in.
    let start: UInt16
    /// Row-major: the row after `row` reads a byte of class `c` is at
    /// `row * classCount + c`.
    let transitions: [UInt16]
    /// Per row: whether the name matches if it ends here.
    let acceptsAtEnd: [Bool]

    var rowCount: Int { acceptsAtEnd.count }

    /// The bytes the tables take: what a compiled pattern keeps.
    var footprint: Int { classOf.count + transitions.count * MemoryLayout<UInt16>.stride + acceptsAtEnd.count }

    /// Whether `name` matches anywhere, as `regexec` would: the bytes of
    /// its UTF-8, up to the first NUL (where a C string ends).
    func matches(_ name: String) -> Bool {
        if start == Self.matched { return true }
        if let answer = name.utf8.withContiguousStorageIfAvailable({ run($0) }) { return answer }
        return Array(name.utf8).withUnsafeBufferPointer { run($0) }
    }

    private func run(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        transitions.withUnsafeBufferPointer { table in
            classOf.withUnsafeBufferPointer { classes in
                var row = Int(start)
                for byte in bytes {
                    if byte == 0 { break }
                    row = Int(table[row &* classCount &+ Int(classes[Int(byte)])])
                    if row == Int(Self.matched) { return true }
                }
                return acceptsAtEnd[row]
            }
        }
    }
}
