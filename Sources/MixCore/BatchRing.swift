import Synchronization

/// A lock-free single-producer, single-consumer ring of batch pointers. The
/// `Mixer` has two: its inbox (control side to audio thread) and its outbox
/// (spent batches going back to be freed on the control side).
///
/// A pointer published with a release-store of `tail` carries the whole
/// batch it points to: the consumer's acquire-load sees every change in it.
public struct BatchRing: ~Copyable, @unchecked Sendable {
    public let capacity: Int
    @usableFromInline let mask: Int
    @usableFromInline let slots: UnsafeMutablePointer<ChangeBatch.Pointer?>
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
        slots.initialize(repeating: nil, count: size)
    }

    deinit { slots.deallocate() }

    /// Pointers published and not yet taken.
    public var count: Int { tail.load(ordering: .acquiring) - head.load(ordering: .acquiring) }

    /// Producer: publishes a batch; false when the ring is full.
    @inlinable @_noLocks
    public func push(_ batch: ChangeBatch.Pointer) -> Bool {
        let end = tail.load(ordering: .relaxed)
        guard end - head.load(ordering: .acquiring) < capacity else { return false }
        slots[end & mask] = batch
        tail.store(end &+ 1, ordering: .releasing)
        return true
    }

    /// Consumer: the oldest published batch, or nil.
    @inlinable @_noLocks
    public func pop() -> ChangeBatch.Pointer? {
        let start = head.load(ordering: .relaxed)
        guard start != tail.load(ordering: .acquiring) else { return nil }
        let batch = slots[start & mask]
        head.store(start &+ 1, ordering: .releasing)
        return batch
    }
}
