import Dynamics
import Shaping

/// Audio thread: a kernel made for a new size taking over from the one
/// that rendered until now, at a period boundary (`Mixer.swapKernel`).
extension RenderKernel {
    /// Takes over `old`'s state for every ramp that stays (the stretches
    /// `runs` lists): where each is, where it goes and how fast, and the
    /// folded gain each crosspoint that stays reached at the end of the last
    /// period; and `old`'s delay lines, with what they hold (the lines of
    /// outputs gone are cleared). Then everything is folded again from those
    /// values, so a channel that stays plays on sample for sample: its gains
    /// start this period where the last one ended them, and a fade under way
    /// goes on to its target on time. What is new stays as this kernel was
    /// made: settled at its initial values.
    @inlinable @_noLocks
    public mutating func adopt(from old: inout RenderKernel, runs: UnsafePointer<KernelSwap.Run>, count: Int) {
        for r in 0..<count {
            let run = runs[r]
            let from = Int(run.from), to = Int(run.to), length = Int(run.count)
            for k in 0..<length {
                position[to + k] = old.position[from + k]
                value[to + k] = old.value[from + k]
                targetPosition[to + k] = old.targetPosition[from + k]
                targetValue[to + k] = old.targetValue[from + k]
                step[to + k] = old.step[from + k]
                ratio[to + k] = old.ratio[from + k]
                remaining[to + k] = old.remaining[from + k]
                boundary[to + k] = old.boundary[from + k]
            }
            for c in 0..<((length + lanes - 1) / lanes) {
                periodsToResync[to / lanes + c] = old.periodsToResync[from / lanes + c]
            }
            // The part of the stretch among the crosspoints (it may begin
            // in the master's block, which the first row follows).
            let first = max(from, old.crosspointBase)
            if first < from + length {
                let (a, b) = (first - old.crosspointBase, to + (first - from) - crosspointBase)
                for k in 0..<(from + length - first) { gainEnd[b + k] = old.gainEnd[a + k] }
            }
        }
        for n in 0..<min(inputs, old.inputs) { (directEnd[n], directTap[n]) = (old.directEnd[n], old.directTap[n]) }
        ratioFrames = old.ratioFrames
        relistMovingChunks()
        delays.exchange(with: &old.delays)
        delays.clear(from: outputs, to: old.outputs)
        sourceEQ.exchange(with: &old.sourceEQ)
        outputEQ.exchange(with: &old.outputEQ)
        limiters.exchange(with: &old.limiters)
        stagesAwake = 4 | 8 | 16 | 32 | 64 // every stage (`everyStage`) looks at its settings
        talkbacks.exchange(with: &old.talkbacks)
        talkbacks.clear(from: outputs)
        listen.exchange(with: &old.listen)
        listen.clear(inputs: inputs, outputs: outputs)
        for c in 0..<(inputStride / lanes) { sourceChunkDirty[c] = true }
        anySourceDirty = true
        outputGainsDirty = true
        allRowsDirty = true
    }

    /// The list of chunks holding a moving ramp, made again from the ramps.
    @inlinable @_noLocks
    mutating func relistMovingChunks() {
        movingCount = 0
        for chunk in 0..<(slots / lanes) {
            var moving = false
            for lane in 0..<lanes where remaining[chunk * lanes + lane] > 0 { moving = true }
            chunkListed[chunk] = moving
            if moving {
                movingChunks[movingCount] = Int32(truncatingIfNeeded: chunk)
                movingCount += 1
            }
        }
    }
}
