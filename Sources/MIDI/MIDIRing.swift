import Synchronization

/// A ring of MIDI events between one producer and one consumer, one of
/// them the audio thread: no lock, no allocation, no wait on either side.
/// Its storage is allocated on the control side (`init`) and freed there
/// (`free`), never while either side may still use it.
///
/// Each event is stored as two bytes of length (little-endian) and its
/// bytes. An event that does not fit in what is free is dropped whole and
/// counted (`dropped`): a flood loses events, never the ring's order or a
/// byte of another event. `written` and `read` count bytes since the
/// start; only the producer stores `written`, only the consumer `read`.
public struct MIDIRing: @unchecked Sendable {
    let storage: UnsafeMutablePointer<UInt8>
    /// A power of two.
    public let capacity: Int
    let counters: UnsafeMutablePointer<Atomic<Int>>
    /// The longest event the ring takes (a SysEx message longer than this is dropped).
    public static let longestEvent = 1024

    /// Control side: room for `capacity` bytes (rounded up to a power of two, at least 4 KiB).
    public init(capacity: Int) {
        var size = 4096
        while size < capacity { size <<= 1 }
        self.capacity = size
        storage = .allocate(capacity: size)
        storage.initialize(repeating: 0, count: size)
        counters = .allocate(capacity: 3)
        for i in 0..<3 { (counters + i).initialize(to: Atomic(0)) }
    }

    /// Control side, once neither side uses it any more.
    public func free() {
        storage.deallocate()
        counters.deinitialize(count: 3)
        counters.deallocate()
    }

    var written: Int { counters[0].load(ordering: .acquiring) }
    var read: Int { counters[1].load(ordering: .acquiring) }
    /// Events dropped: the ring was full, the event empty or longer than
    /// `longestEvent`, or (outgoing) the port full.
    public var dropped: Int { counters[2].load(ordering: .relaxed) }

    /// Producer: the bytes free for events (each takes its length + 2).
    public var room: Int { capacity &- (counters[0].load(ordering: .relaxed) &- counters[1].load(ordering: .acquiring)) }

    /// Producer: adds the event of `count` bytes at `bytes`; false if it was dropped.
    @discardableResult @_noLocks
    public func push(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        let head = counters[0].load(ordering: .relaxed)
        let tail = counters[1].load(ordering: .acquiring)
        guard count > 0, count <= Self.longestEvent, capacity &- (head &- tail) >= count &+ 2 else {
            counters[2].add(1, ordering: .relaxed)
            return false
        }
        let mask = capacity &- 1
        storage[head & mask] = UInt8(truncatingIfNeeded: count)
        storage[(head &+ 1) & mask] = UInt8(truncatingIfNeeded: count >> 8)
        for i in 0..<count { storage[(head &+ 2 &+ i) & mask] = bytes[i] }
        counters[0].store(head &+ 2 &+ count, ordering: .releasing)
        return true
    }

    /// Counts an event lost on the way out (a full port took no more).
    @_noLocks
    public func noteDropped() { counters[2].add(1, ordering: .relaxed) }

    /// Consumer: the next event's length, without taking it; nil if there is none.
    @_noLocks
    public func nextLength() -> Int? {
        let tail = counters[1].load(ordering: .relaxed)
        let head = counters[0].load(ordering: .acquiring)
        guard head &- tail >= 2 else { return nil }
        let mask = capacity &- 1
        return Int(storage[tail & mask]) | Int(storage[(tail &+ 1) & mask]) << 8
    }

    /// Consumer: the next event's bytes into `into` (room for
    /// `longestEvent`), and its length; nil if there is none.
    @_noLocks
    public func pop(into bytes: UnsafeMutablePointer<UInt8>) -> Int? {
        let tail = counters[1].load(ordering: .relaxed)
        let head = counters[0].load(ordering: .acquiring)
        guard head &- tail >= 2 else { return nil }
        let mask = capacity &- 1
        let count = Int(storage[tail & mask]) | Int(storage[(tail &+ 1) & mask]) << 8
        for i in 0..<count { bytes[i] = storage[(tail &+ 2 &+ i) & mask] }
        counters[1].store(tail &+ 2 &+ count, ordering: .releasing)
        return count
    }
}
