import Synchronization

/// A lock-free single-producer, single-consumer ring of `Change`s: the
/// control side writes, the audio thread reads at the start of each period.
///
/// The producer publishes a whole batch with one release-store of `tail`, so
/// the consumer sees all of a batch or none of it: that is what makes the
/// messages of one OSC bundle land in the same audio period.
public struct ChangeQueue: ~Copyable, @unchecked Sendable {
    public let capacity: Int
    @usableFromInline let mask: Int
    @usableFromInline let slots: UnsafeMutablePointer<Change>
    /// Next slot to read; only the consumer stores it.
    @usableFromInline let head = Atomic<Int>(0)
    /// Next slot to write; only the producer stores it.
    @usableFromInline let tail = Atomic<Int>(0)

    /// `capacity` is rounded up to a power of two.
    public init(capacity: Int) {
        var size = 1
        while size < capacity { size <<= 1 }
        self.capacity = size
        mask = size - 1
        slots = .allocate(capacity: size)
    }

    deinit { slots.deallocate() }

    /// Producer: how many more changes fit now.
    public var freeSlots: Int {
        capacity - (tail.load(ordering: .relaxed) - head.load(ordering: .acquiring))
    }

    /// Producer: writes as many of `changes` as fit and publishes them
    /// together. Returns how many were written.
    public func write(_ changes: ArraySlice<Change>) -> Int {
        let start = tail.load(ordering: .relaxed)
        let count = min(changes.count, freeSlots)
        var index = start
        for change in changes.prefix(count) {
            slots[index & mask] = change
            index += 1
        }
        tail.store(index, ordering: .releasing)
        return count
    }

    /// Consumer: the range of slots ready to read.
    @inlinable @_noLocks
    public func readable() -> Range<Int> {
        let start = head.load(ordering: .relaxed)
        let end = tail.load(ordering: .acquiring)
        return start..<end
    }

    @inlinable @_noLocks
    public func slot(_ index: Int) -> Change { slots[index & mask] }

    /// Consumer: frees every slot before `end`.
    @inlinable @_noLocks
    public func release(upTo end: Int) { head.store(end, ordering: .releasing) }
}
