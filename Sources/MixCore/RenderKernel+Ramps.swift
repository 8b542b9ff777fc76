/// Audio thread: moving ramps advance by a period, levels along the fader
/// law (exactly, or by a per-period ratio within one segment of the law).
extension RenderKernel {
    /// Every chunk holding a moving ramp, one period on. Level ramps take the
    /// ratio path unless it is time, or needed, to compute them exactly
    /// (`RampArrays+Advance`, on the SIMD path). (Kept out of line: the
    /// optimiser stops inlining into a function past a certain size.)
    @inlinable @inline(never) @_noLocks
    mutating func advanceRamps(frames: Int) {
        if frames != ratioFrames {
            ratioFrames = frames
            for c in 0..<movingCount { periodsToResync[Int(movingChunks[c])] = -1 }
        }
        // Every chunk in the list a period on, on the SIMD path's own build
        // (`RampArrays+Advance`); here, what each touched, and the chunks
        // whose ramps have all landed leave the list.
        advanceChunks(frames: frames)
        // Crosspoint chunks (nearly all of them) mark their row here, with
        // the flag kept in a local: `markChanged` for the rest.
        // (The pointers in locals: stores through them could alias the
        // kernel's own fields, which would otherwise be reloaded each time.)
        let firstCrosspointChunk = crosspointBase / lanes
        let (chunks, outcome, rows, dirty) = (movingChunks, rampOutcome, chunkRow, rowDirty)
        var count = movingCount, rowsMoved = false
        var c = 0
        while c < count {
            let chunk = Int(chunks[c])
            if chunk >= firstCrosspointChunk {
                dirty[Int(rows[chunk])] = true
                rowsMoved = true
            } else if stageChunk[chunk] == 0 {
                markChanged(chunk: chunk, lane: 0, whole: true)
            } else {
                // A stage's settings moved: it looks at them this period.
                stagesAwake |= stageChunk[chunk] & 0x7C
            }
            if outcome[c] == 1 {
                c += 1
            } else {
                chunkListed[chunk] = false
                count -= 1
                chunks[c] = chunks[count]
                outcome[c] = outcome[count]
            }
        }
        movingCount = count
        if rowsMoved { anyRowDirty = true }
    }
}
