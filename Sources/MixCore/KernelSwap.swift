/// A kernel of a new size, staged for the audio thread to take over from
/// the one it renders with: built on the control side (`Mixer.reshape`),
/// taken at the start of a period through the inbox like any batch
/// (`Mixer.swapKernel`), and handed back holding the kernel it replaced,
/// which the control side frees. Nothing here is allocated or freed on the
/// audio thread.
public struct KernelSwap {
    /// A stretch of slots that stays: `count` ramps from slot `from` of the
    /// old layout to slot `to` of the new, both on a 16-lane chunk boundary.
    public struct Run: Equatable, Sendable {
        public let from: Int32
        public let to: Int32
        public let count: Int32
    }

    /// The kernel to take over; after the swap, the one it replaced.
    @usableFromInline var kernel: UnsafeMutablePointer<RenderKernel>
    /// Per slot of the old layout: its slot in the new, or −1 where the
    /// ramp is gone (timed batches staged for the old layout are restaged by it).
    @usableFromInline let remap: UnsafeMutablePointer<Int32>
    @usableFromInline let remapCount: Int
    /// The stretches that stay, in slot order.
    @usableFromInline let runs: UnsafeMutablePointer<Run>
    @usableFromInline let runCount: Int
    /// The first frame of the period after the one under way when it was
    /// handed over (nil: no audio thread), for measuring how soon the audio
    /// thread took it (`Mixer.lastResizeFrames`).
    @usableFromInline var submittedFrame: UInt32?

    /// Control side: a swap to `kernel` (made for `next`) from a kernel made for `old`.
    static func make(kernel: UnsafeMutablePointer<RenderKernel>, from old: RampLayout,
                     to next: RampLayout) -> UnsafeMutablePointer<KernelSwap> {
        let table = old.remap(to: next)
        let stays = KernelSwap.runs(of: table)
        let remap = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, table.count))
        remap.initialize(from: table, count: table.count)
        let runs = UnsafeMutablePointer<Run>.allocate(capacity: max(1, stays.count))
        runs.initialize(from: stays, count: stays.count)
        let swap = UnsafeMutablePointer<KernelSwap>.allocate(capacity: 1)
        swap.initialize(to: KernelSwap(kernel: kernel, remap: remap, remapCount: table.count,
                                       runs: runs, runCount: stays.count, submittedFrame: nil))
        return swap
    }

    /// The longest stretches of consecutive slots that map to consecutive slots.
    static func runs(of remap: [Int32]) -> [Run] {
        var runs: [Run] = []
        var i = 0
        while i < remap.count {
            guard remap[i] >= 0 else { i += 1; continue }
            var end = i + 1
            while end < remap.count && remap[end] == remap[end - 1] + 1 { end += 1 }
            precondition(i % RampLayout.lanes == 0 && Int(remap[i]) % RampLayout.lanes == 0,
                         "a stretch that stays starts on a chunk in both layouts")
            runs.append(Run(from: Int32(i), to: remap[i], count: Int32(end - i)))
            i = end
        }
        return runs
    }

    /// Control side: frees the swap and the kernel it holds (the one
    /// replaced, or the one never taken).
    static func free(_ swap: UnsafeMutablePointer<KernelSwap>) {
        swap.pointee.kernel.deinitialize(count: 1)
        swap.pointee.kernel.deallocate()
        swap.pointee.remap.deallocate()
        swap.pointee.runs.deallocate()
        swap.deinitialize(count: 1)
        swap.deallocate()
    }
}
