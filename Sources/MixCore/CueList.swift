/// The timed batches the audio thread holds, each waiting for its time on
/// the cue clock (`ChangeBatch.due`): a fixed-size ring kept in time order,
/// owned by the audio thread (by the control side only while no audio
/// thread is attached).
///
/// The cue due first is always at the head, so a period looks at the cues
/// it applies and one more, whatever the list holds. A cue goes in behind
/// every cue due at or before its time (equal times keep arrival order);
/// the control side hands them over earliest first, so that is the tail.
///
/// Small on purpose: the control side hands over only batches due within
/// `Mixer.handOverHorizon`, and never more than `capacity` at once.
public struct CueList: ~Copyable {
    public let capacity: Int
    @usableFromInline let entries: UnsafeMutablePointer<ChangeBatch.Pointer?>
    /// Where the cue due first is, and how many there are from there on.
    @usableFromInline var head = 0
    @usableFromInline var count = 0

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        entries = .allocate(capacity: self.capacity)
        entries.initialize(repeating: nil, count: self.capacity)
    }

    deinit { entries.deallocate() }

    /// Whether the list holds no cue.
    public var isEmpty: Bool { count == 0 }

    /// The ring index of the k-th cue in frame order.
    @inlinable @inline(__always) @_noLocks
    func index(_ k: Int) -> Int {
        let i = head + k
        return i >= capacity ? i - capacity : i
    }

    /// Puts a cue in its place by time; false when the list is full.
    @inlinable @_noLocks
    mutating func insert(_ batch: ChangeBatch.Pointer) -> Bool {
        guard count < capacity else { return false }
        let due = batch.pointee.due
        var k = count
        while k > 0 {
            guard let earlier = entries[index(k - 1)], due < earlier.pointee.due else { break }
            entries[index(k)] = earlier
            k -= 1
        }
        entries[index(k)] = batch
        count += 1
        return true
    }

    /// The offset into a period of `frames` covering `span` of the cue due
    /// first, if it falls in this period (0 for a cue whose time has passed).
    @inlinable @_noLocks
    func nextOffset(in span: PeriodSpan, frames: Int) -> Int? {
        guard count > 0, let batch = entries[head] else { return nil }
        return span.offset(of: batch.pointee.due, frames: frames)
    }

    /// Takes the cue due first out.
    @inlinable @_noLocks
    mutating func removeFirst() -> ChangeBatch.Pointer? {
        guard count > 0 else { return nil }
        let batch = entries[head]
        entries[head] = nil
        head = index(1)
        count -= 1
        return batch
    }

    /// Restages the cues staged for the layout a swap replaces (`generation`)
    /// into the one it brings.
    @inlinable @_noLocks
    mutating func restage(by swap: UnsafePointer<KernelSwap>, from generation: Int) {
        for k in 0..<count {
            if let batch = entries[index(k)], batch.pointee.generation == generation { batch.pointee.restage(by: swap) }
        }
    }
}
