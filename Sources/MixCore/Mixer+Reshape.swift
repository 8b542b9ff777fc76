import Synchronization

/// A change of size while the rig plays (`/rig/inputs`, `/rig/outputs`),
/// staged as changes are: the next kernel is built here, on the control
/// side; the audio thread takes it over at the start of a period
/// (`swapKernel`) and hands the old one back through the outbox; it is
/// freed here. Nothing waits.
extension Mixer {
    /// Hands the audio thread a kernel for the layout `next` (the same
    /// blocks, another size), made settled at the values `initial` gives,
    /// with the stereo pairs `layout`. It takes over the ramps, gains and
    /// delay lines of every channel that stays (`RenderKernel.adopt`), in
    /// order with the batches submitted before and after: changes submitted
    /// from now on are staged for `next`. Timed batches still waiting are
    /// restaged for it (changes to what is gone are dropped).
    public func reshape(to next: RampLayout, initial: [Change], layout: OutputLayout) {
        precondition(next.inputs <= Self.channelLimit && next.outputs <= Self.channelLimit)
        let kernel = UnsafeMutablePointer<RenderKernel>.allocate(capacity: 1)
        kernel.initialize(to: RenderKernel(ramps: next, initial: initial, maxFrames: maxFrames, panLaw: panLaw,
                                           layout: layout, longestDelay: longestDelay, delayLines: 0, simd: simd))
        producer.withLock { _ in
            reclaim()
            let swap = KernelSwap.make(kernel: kernel, from: ramps, to: next)
            // Where the audio is: the first frame of the period after the one under way.
            swap.pointee.submittedFrame = attached.load(ordering: .relaxed) ? ownFrameTime.load(ordering: .relaxed) : nil
            for batch in waiting where batch.pointee.generation == generation { batch.pointee.restage(by: UnsafePointer(swap)) }
            backlog.append(ChangeBatch.make(swap: swap, submitted: Self.unixTime(), generation: generation))
            generation += 1
            ramps = next
            outputLayout = layout
            stagedInputs.store(next.inputs, ordering: .sequentiallyConsistent)
            stagedOutputs.store(next.outputs, ordering: .sequentiallyConsistent)
            flushBacklog()
        }
        wakeService()
    }
}

extension Mixer {
    /// Audio thread (or the control side in its place): the kernel a swap
    /// brings takes over from the one rendering, which goes back in the
    /// batch to be freed; the cues staged for the old layout are restaged;
    /// the new size is published for the ports.
    @inlinable @_noLocks
    func swapKernel(_ batch: ChangeBatch.Pointer) {
        guard let swap = batch.pointee.swap else { return }
        let old = rendering.pointee.kernel, next = swap.pointee.kernel
        next.pointee.adopt(from: &old.pointee, runs: swap.pointee.runs, count: swap.pointee.runCount)
        swap.pointee.kernel = old
        rendering.pointee.kernel = next
        cues.pointee.restage(by: UnsafePointer(swap), from: rendering.pointee.generation)
        rendering.pointee.generation += 1
        if let submitted = swap.pointee.submittedFrame {
            swapDelay.store(max(0, Int(Int32(bitPattern: rendering.pointee.periodStart &- submitted))), ordering: .relaxed)
        }
        renderedInputs.store(next.pointee.inputs, ordering: .releasing)
        renderedOutputs.store(next.pointee.outputs, ordering: .releasing)
    }
}
