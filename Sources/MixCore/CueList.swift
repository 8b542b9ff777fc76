/// The timed batches the audio thread holds, each waiting for its JACK
/// frame: a fixed-size list, in arrival order, owned by the audio thread
/// (by the control side only while no audio thread is attached).
///
/// Small on purpose: the control side hands over only batches due within
/// `Mixer.handOverHorizon`, and never more than `capacity` at once.
public struct CueList: ~Copyable {
    public let capacity: Int
    @usableFromInline let entries: UnsafeMutablePointer<ChangeBatch.Pointer?>
    @usableFromInline var count = 0

    public init(capacity: Int) {
        self.capacity = capacity
        entries = .allocate(capacity: capacity)
        entries.initialize(repeating: nil, count: capacity)
    }

    deinit { entries.deallocate() }

    @inlinable @_noLocks
    mutating func append(_ batch: ChangeBatch.Pointer) -> Bool {
        guard count < capacity else { return false }
        entries[count] = batch
        count += 1
        return true
    }

    /// The cue due first among those falling before the end of a period of
    /// `frames` starting at frame `start`, and its offset into the period
    /// (0 for a cue whose frame has passed). Equal frames: arrival order.
    @inlinable @_noLocks
    func next(periodStart start: UInt32, frames: Int) -> (index: Int, offset: Int)? {
        var best = -1
        var bestOffset = Int.max
        for i in 0..<count {
            guard let batch = entries[i] else { continue }
            // Frame times wrap at 2³²; the difference, read as signed, is
            // the distance (a cue is never more than seconds away).
            let offset = max(0, Int(Int32(bitPattern: batch.pointee.frame &- start)))
            if offset < frames && offset < bestOffset {
                best = i
                bestOffset = offset
            }
        }
        return best < 0 ? nil : (best, bestOffset)
    }

    /// Takes the cue at `index` out, keeping the others in arrival order.
    @inlinable @_noLocks
    mutating func remove(at index: Int) -> ChangeBatch.Pointer? {
        let batch = entries[index]
        var i = index
        while i + 1 < count {
            entries[i] = entries[i + 1]
            i += 1
        }
        count -= 1
        entries[count] = nil
        return batch
    }
}
