/// The bytes grouped into classes that no byte set of the pattern tells
/// apart: `^system:capture_[0-9]+$` sees a dozen (each letter of it, the
/// digits, and everything else), not 256. The DFA has a column per class
/// instead of per byte, which keeps its table small and its construction
/// short.
struct ByteClasses {
    /// The class of each byte.
    let classOf: [UInt8]
    /// One byte of each class, to stand for it.
    let representatives: [UInt8]
    var count: Int { representatives.count }

    /// Refines the single class of all bytes by each set in turn: a class
    /// splits into the bytes in the set and those not. At most 256 classes.
    init(_ sets: [ByteSet]) {
        var classOf = [UInt8](repeating: 0, count: 256)
        var count = 1
        var renumber = [Int](repeating: -1, count: 512)
        for set in sets {
            for slot in 0..<(2 * count) { renumber[slot] = -1 }
            var made = 0
            for byte in 0..<256 {
                let slot = Int(classOf[byte]) * 2 + (set.contains(UInt8(byte)) ? 1 : 0)
                if renumber[slot] < 0 {
                    renumber[slot] = made
                    made += 1
                }
                classOf[byte] = UInt8(renumber[slot])
            }
            count = made
        }
        var representatives = [UInt8](repeating: 0, count: count)
        for byte in (0..<256).reversed() { representatives[Int(classOf[byte])] = UInt8(byte) }
        self.classOf = classOf
        self.representatives = representatives
    }
}
