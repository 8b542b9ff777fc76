/// Changes prepared together on the control side and taken by the audio
/// thread whole, in one period, however many there are: a recall of a
/// 512x512 scene is one batch, as is one fader move.
///
/// Staged as SuperCollider's server stages commands: the control side
/// allocates the batch, the audio thread takes it through one pointer (from
/// the `Mixer`'s inbox) and hands it back spent, and the control side frees it.
public struct ChangeBatch {
    /// Where a batch in flight is: a pointer, so the audio thread never
    /// retains or releases anything.
    public typealias Pointer = UnsafeMutablePointer<ChangeBatch>

    /// Staged: `ramp` holds the ramp's slot in the kernel (`RampLayout`).
    public let changes: UnsafeMutablePointer<Change>
    public let count: Int
    /// Timed batches wait in the audio thread's `CueList` for their frame;
    /// the others apply at the start of the period that takes them.
    public let isTimed: Bool
    /// When the batch takes effect, as a Unix time (control side): a timed
    /// batch's due time, or when a batch for now was submitted. While no
    /// audio thread runs, batches apply in this order.
    public let time: Double
    /// When a timed batch applies on the cue clock (`CueClock`: JACK's
    /// microseconds), set when it is handed to the audio thread; its frame
    /// is worked out in the period it falls due (`PeriodSpan`).
    public var due: UInt64 = 0
    /// The layout its slots are staged for, counted from the mixer's first
    /// (`Mixer.reshape`): a timed batch waiting across a change of size is
    /// restaged for the new one (`restage`).
    public var generation: Int
    /// A kernel of a new size to take over (`KernelSwap`), instead of changes.
    @usableFromInline var swap: UnsafeMutablePointer<KernelSwap>?

    private init(changes: UnsafeMutablePointer<Change>, count: Int, isTimed: Bool, time: Double, generation: Int,
                 swap: UnsafeMutablePointer<KernelSwap>? = nil) {
        self.changes = changes
        self.count = count
        self.isTimed = isTimed
        self.time = time
        self.generation = generation
        self.swap = swap
    }

    /// Control side: a new batch holding `changes` staged for the kernel:
    /// in slot order (in the order given where two name the same ramp), so
    /// that the audio thread walks the kernel's arrays forwards, a cache
    /// line at a time, however large the batch. A slot outside the layout
    /// is staged past its end (the kernel ignores it).
    /// `due`: the time a timed batch applies at; nil for now (`submitted`).
    static func make(_ changes: [Change], due: Double?, submitted: Double, layout: RampLayout,
                     generation: Int) -> Pointer {
        // Slot in the high half, position in the batch in the low: one sort, stable.
        var keys = [UInt64](repeating: 0, count: changes.count)
        for (index, change) in changes.enumerated() {
            let ramp = Int(change.ramp)
            let slot = ramp >= 0 && ramp < layout.slots ? ramp : layout.slots
            keys[index] = UInt64(slot) << 32 | UInt64(index)
        }
        keys.sort()
        let storage = UnsafeMutablePointer<Change>.allocate(capacity: max(1, changes.count))
        for (position, key) in keys.enumerated() {
            var change = changes[Int(key & 0xFFFF_FFFF)]
            change.ramp = Int32(truncatingIfNeeded: key >> 32)
            (storage + position).initialize(to: change)
        }
        return wrap(storage, count: changes.count, due: due, submitted: submitted, generation: generation)
    }

    /// Control side: a new batch of changes already staged (by slot).
    static func make(staged changes: [Change], due: Double?, submitted: Double, generation: Int = 0) -> Pointer {
        let storage = UnsafeMutablePointer<Change>.allocate(capacity: max(1, changes.count))
        _ = UnsafeMutableBufferPointer(start: storage, count: changes.count).initialize(from: changes)
        return wrap(storage, count: changes.count, due: due, submitted: submitted, generation: generation)
    }

    /// Control side: a batch that hands the audio thread a kernel of a new
    /// size, taking over from one of layout `generation`.
    static func make(swap: UnsafeMutablePointer<KernelSwap>, submitted: Double, generation: Int) -> Pointer {
        let batch = Pointer.allocate(capacity: 1)
        batch.initialize(to: ChangeBatch(changes: .allocate(capacity: 1), count: 0, isTimed: false, time: submitted,
                                         generation: generation, swap: swap))
        return batch
    }

    private static func wrap(_ storage: UnsafeMutablePointer<Change>, count: Int, due: Double?,
                             submitted: Double, generation: Int) -> Pointer {
        let batch = Pointer.allocate(capacity: 1)
        batch.initialize(to: ChangeBatch(changes: storage, count: count, isTimed: due != nil, time: due ?? submitted,
                                         generation: generation))
        return batch
    }

    /// Control side: frees a batch the audio thread has handed back (or
    /// never took), and a swap's kernel with it.
    static func free(_ batch: Pointer) {
        if let swap = batch.pointee.swap { KernelSwap.free(swap) }
        batch.pointee.changes.deallocate()
        batch.deinitialize(count: 1)
        batch.deallocate()
    }

    /// Whether the batch hands over a kernel rather than changes.
    @inlinable var isSwap: Bool { swap != nil }

    /// Restages a batch staged for the layout a swap replaces into the one
    /// it brings: each change to its ramp's new slot, or to none (−1, which
    /// the kernel ignores) where the ramp is gone. Slot order is kept.
    @inlinable @_noLocks
    mutating func restage(by swap: UnsafePointer<KernelSwap>) {
        let remap = swap.pointee.remap, slots = swap.pointee.remapCount
        for k in 0..<count {
            let slot = Int(changes[k].ramp)
            changes[k].ramp = slot >= 0 && slot < slots ? remap[slot] : -1
        }
        generation += 1
    }

    /// The batch's staged changes, for the control side.
    var staged: [Change] { Array(UnsafeBufferPointer(start: changes, count: count)) }
}
