import Synchronization

/// What the audio thread runs: take the batches handed over (a kernel of a
/// new size among them), apply each at its time, render. Everything here
/// is `@_noLocks`.
extension Mixer {
    /// One period, offline or from a caller whose buffers do not depend on
    /// the size (`begin` then `render`), counting frames itself: offline,
    /// cues wait on frames.
    @_noLocks
    public func process(inputs input: UnsafePointer<UnsafePointer<Float>>,
                        outputs output: UnsafePointer<UnsafeMutablePointer<Float>>,
                        frames: Int) {
        _ = begin(frames: frames)
        render(inputs: input, outputs: output, directs: nil, frames: frames)
    }

    /// The start of a period: takes every batch handed over, in order.
    /// Batches for now apply before the first sample; a kernel swap takes
    /// effect here, so the period renders whole at one size. Returns that
    /// size: the caller hands `render` that many input and output buffers.
    /// `frameTime` is the JACK frame of the period's first sample and `span`
    /// what it covers of the cue clock, JACK's microseconds (nil, offline:
    /// the mixer counts frames itself, and cues wait on frames).
    ///
    /// Not inlinable on purpose: callers in other modules always call this
    /// module's copy, compiled optimised for the kernel's CPU target.
    @_noLocks
    public func begin(frames: Int, frameTime: UInt32? = nil, span: PeriodSpan? = nil) -> (inputs: Int, outputs: Int) {
        let start: UInt32
        if let frameTime { start = frameTime } else { start = ownFrameTime.load(ordering: .relaxed) }
        ownFrameTime.store(start &+ UInt32(truncatingIfNeeded: frames), ordering: .relaxed)
        rendering.pointee.periodStart = start
        if let span {
            rendering.pointee.span = span
        } else {
            rendering.pointee.span = PeriodSpan(start: UInt64(start), end: UInt64(start) + UInt64(frames))
        }
        let rate = sampleRate.load(ordering: .relaxed)
        while let batch = inbox.pop() {
            // (Nested, not `&&`: its autoclosure would retain.)
            if batch.pointee.isTimed {
                if cues.pointee.insert(batch) { continue }
            }
            apply(batch, sampleRate: rate)
            _ = outbox.push(batch) // never full: the control side keeps room
        }
        let kernel = rendering.pointee.kernel
        return (kernel.pointee.inputs, kernel.pointee.outputs)
    }

    /// The rest of the period `begin` started: a cue (timed batch) whose
    /// time falls inside it splits it at its frame: the frames before it render with
    /// the state before, and its ramps start at its frame. Then the meters.
    /// `directs`: each source's direct out buffer, nil where it has no port
    /// (`RenderKernel.renderDirects`); nil: none at all. `talks`: each
    /// talkback's input buffer (`talkCount` of them), nil where it has none.
    /// `listen`: the listen's two buffers (nil: no ports).
    @_noLocks
    public func render(inputs input: UnsafePointer<UnsafePointer<Float>>,
                       outputs output: UnsafePointer<UnsafeMutablePointer<Float>>,
                       directs: UnsafePointer<UnsafeMutablePointer<Float>?>?,
                       talks: UnsafePointer<UnsafePointer<Float>?>? = nil, talkCount: Int = 0,
                       listen: UnsafePointer<UnsafeMutablePointer<Float>?>? = nil, frames: Int) {
        let span = rendering.pointee.span
        let rate = sampleRate.load(ordering: .relaxed)
        rendering.pointee.kernel.pointee.startLimiterMeter()
        var done = 0
        while let offset = cues.pointee.nextOffset(in: span, frames: frames) {
            renderSegment(input, output, directs, talks, talkCount, listen, from: done, to: offset, of: frames, sampleRate: rate)
            done = max(done, offset)
            if let batch = cues.pointee.removeFirst() {
                apply(batch, sampleRate: rate)
                _ = outbox.push(batch)
            }
        }
        renderSegment(input, output, directs, talks, talkCount, listen, from: done, to: frames, of: frames, sampleRate: rate)
        let kernel = rendering.pointee.kernel
        meters.measure(input, inputs: kernel.pointee.inputs, output, outputs: kernel.pointee.outputs, frames: frames,
                       sourceGains: kernel.pointee.sourceMeter, limiterGains: kernel.pointee.limiterLowest,
                       limited: kernel.pointee.hasLimiters)
        periods.add(1, ordering: .relaxed)
    }

    /// Starts the ramps of every change in a batch staged for the kernel in
    /// place, or swaps the kernel a batch brings.
    @inlinable @_noLocks
    func apply(_ batch: ChangeBatch.Pointer, sampleRate rate: Int) {
        if batch.pointee.swap != nil {
            swapKernel(batch)
        } else if batch.pointee.generation == rendering.pointee.generation {
            rendering.pointee.kernel.pointee.apply(staged: batch.pointee.changes, count: batch.pointee.count, sampleRate: rate)
        }
        queued.subtract(batch.pointee.count, ordering: .relaxed)
    }

    /// Renders frames `first..<end` of the period; the kernel sees a period
    /// of that length (its ramps advance by that much), the talkbacks'
    /// inputs from the same frame. Then the stages after the mix: the
    /// sources' direct outs, the outputs' delays and limiters, the listen.
    @inlinable @_noLocks
    func renderSegment(_ input: UnsafePointer<UnsafePointer<Float>>,
                       _ output: UnsafePointer<UnsafeMutablePointer<Float>>,
                       _ directs: UnsafePointer<UnsafeMutablePointer<Float>?>?,
                       _ talks: UnsafePointer<UnsafePointer<Float>?>?, _ talkCount: Int,
                       _ listen: UnsafePointer<UnsafeMutablePointer<Float>?>?,
                       from first: Int, to end: Int, of frames: Int, sampleRate rate: Int) {
        guard end > first else { return }
        let kernel = rendering.pointee.kernel
        let (inputs, outputs) = (kernel.pointee.inputs, kernel.pointee.outputs)
        guard end - first <= kernel.pointee.maxFrames else {
            // Longer than the kernel was made for (JACK asks for at most
            // 8192 frames, `maxFrames`): silence, and no stage reads or
            // writes past the buffers it was given for that many.
            for m in 0..<outputs { (output[m] + first).update(repeating: 0, count: end - first) }
            if let directs {
                for n in 0..<inputs { if let buffer = directs[n] { (buffer + first).update(repeating: 0, count: end - first) } }
            }
            if let listen {
                for side in 0..<2 { if let buffer = listen[side] { (buffer + first).update(repeating: 0, count: end - first) } }
            }
            return
        }
        kernel.pointee.sampleRate = Float(rate)
        kernel.pointee.talkbacks.use(talks, count: talkCount, offset: first)
        kernel.pointee.listen.use(listen, offset: first)
        if first == 0 && end == frames {
            kernel.pointee.render(inputs: input, outputs: output, frames: frames)
            if let directs { kernel.pointee.renderDirects(input, directs, frames: frames) }
            kernel.pointee.delays.process(output, count: outputs, frames: frames, sampleRate: rate)
            kernel.pointee.limit(output, frames: frames)
            kernel.pointee.renderListen(output, frames: frames)
            return
        }
        for n in 0..<inputs { segmentInputs[n] = input[n] + first }
        for m in 0..<outputs { segmentOutputs[m] = output[m] + first }
        kernel.pointee.render(inputs: segmentInputs, outputs: segmentOutputs, frames: end - first)
        if let directs {
            for n in 0..<inputs {
                if let buffer = directs[n] { segmentDirects[n] = buffer + first } else { segmentDirects[n] = nil }
            }
            kernel.pointee.renderDirects(segmentInputs, segmentDirects, frames: end - first)
        }
        kernel.pointee.delays.process(segmentOutputs, count: outputs, frames: end - first, sampleRate: rate)
        kernel.pointee.limit(segmentOutputs, frames: end - first)
        kernel.pointee.renderListen(segmentOutputs, frames: end - first)
    }
}
