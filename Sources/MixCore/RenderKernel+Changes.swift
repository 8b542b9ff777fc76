/// Audio thread: starting ramps from the changes of a batch, and noting
/// what each change makes dirty (rows, sources, output gains).
extension RenderKernel {
    /// Starts the ramp a change names (control side, while no audio thread
    /// runs: tests). Changes naming no slot are ignored.
    public mutating func apply(_ change: Change, sampleRate: Int) {
        withUnsafePointer(to: change) { apply(staged: $0, count: 1, sampleRate: sampleRate) }
    }

    /// Starts the ramps of changes staged by slot (`ChangeBatch`: `ramp`
    /// holds the slot, in slot order). A chunk's bookkeeping is done once
    /// for a run of changes in it: a whole-scene recall costs a few stores
    /// per crosspoint. Slots out of range and targets that are not finite
    /// are ignored; fade times are clamped (`fadeSamples`).
    @inlinable @_noLocks
    public mutating func apply(staged changes: UnsafePointer<Change>, count: Int, sampleRate: Int) {
        let rate = Float(sampleRate)
        var markedChunk = -1, listedChunk = -1
        for k in 0..<count {
            let change = changes[k]
            let i = Int(change.ramp)
            // A slot out of range or a target that is no number names nothing: ignored.
            guard i >= 0 && i < slots && change.position.isFinite && change.value.isFinite else { continue }
            if isDelay(slot: i) {
                delays.retarget(output: i - delayBase, seconds: change.value, fade: change.seconds)
                continue
            }
            // A direct out's tap, a band's shape, a cut's slope, a limiter's
            // release and lookahead change at once.
            let stage = stageChunk[i / lanes]
            // Its stage looks at its settings in the next period.
            stagesAwake |= stage & 0x7C
            let samples = isDirect(slot: i) || stage & 3 == 2 ? 0 : Self.fadeSamples(change.seconds, rate: rate)
            // Where it stands now (before its target changes), for a fade from there.
            let from = ramps.livePosition(i)
            targetPosition[i] = change.position
            targetValue[i] = change.value
            let chunk = i / lanes
            if samples <= 0 {
                position[i] = change.position
                value[i] = change.value
                remaining[i] = 0
            } else {
                position[i] = from
                step[i] = (change.position - from) / Float(samples)
                remaining[i] = samples
                if chunk != listedChunk {
                    listedChunk = chunk
                    // The first period of a new ramp computes its gain and ratio
                    // from the position; later exact periods are spread over chunks.
                    periodsToResync[chunk] = -1
                    if !chunkListed[chunk] {
                        chunkListed[chunk] = true
                        movingChunks[movingCount] = Int32(chunk)
                        movingCount += 1
                    }
                }
            }
            // A chunk of crosspoints is one row: marked once. Output blocks
            // mark the row of each lane that changed.
            // A stage's value (EQ, limiter) is read by the stage, and folds into no gain.
            if stage == 0 && (chunk != markedChunk || (i >= outputBase && i < masterBase)) {
                markedChunk = chunk
                markChanged(chunk: chunk, lane: i - chunk * lanes, whole: false)
            }
        }
    }

    /// A fade's length in samples, whatever the control side hands over: no
    /// time, a negative one or NaN jumps; anything past an hour (infinity
    /// too) takes an hour, and never more than an `Int32` holds.
    @inlinable @inline(__always) @_noLocks
    static func fadeSamples(_ seconds: Float, rate: Float) -> Int32 {
        guard seconds > 0 else { return 0 } // NaN fails it too
        let samples = min(seconds, 3600) * rate
        guard samples >= 1 else { return 0 }
        return samples < 2e9 ? Int32(samples) : 2_000_000_000
    }

    /// Whether a slot is a source's direct out tap, which never ramps.
    @inlinable @inline(__always) @_noLocks
    func isDirect(slot i: Int) -> Bool { directBase >= 0 && i >= directBase && i < directBase + inputStride }

    /// Whether a slot is an output's delay, which the delay stage takes
    /// rather than a ramp.
    @inlinable @inline(__always) @_noLocks
    func isDelay(slot i: Int) -> Bool { delayBase >= 0 && i >= delayBase && i < delayBase + outputStride }

    /// Records what a change in `chunk` affects: one crosspoint row, some
    /// sources (all rows), some outputs' rows, or the master (all rows).
    /// `whole`: any lane of the chunk may have changed, not only `lane`.
    @inlinable @inline(__always) @_noLocks
    mutating func markChanged(chunk: Int, lane: Int, whole: Bool) {
        let base = chunk &* lanes
        if base >= crosspointBase {
            // The row from a table: a division here cost more than the
            // rest of a moving chunk's bookkeeping.
            rowDirty[Int(chunkRow[chunk])] = true
            anyRowDirty = true
        } else if base < outputBase {
            sourceChunkDirty[(base % inputStride) / lanes] = true
            anySourceDirty = true
        } else if base < masterBase {
            outputGainsDirty = true
            let first = (base - outputBase) % outputStride
            if whole {
                for m in first..<min(outputs, first + lanes) { rowDirty[m] = true }
            } else if first + lane < outputs {
                rowDirty[first + lane] = true
            }
            anyRowDirty = true
        } else {
            outputGainsDirty = true
            allRowsDirty = true
        }
    }
}
