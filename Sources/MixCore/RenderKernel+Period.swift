/// Audio thread: one period (or one segment of a period split by a cue):
/// ramps advance, gains fold, outputs mix.
extension RenderKernel {
    /// Mixes one period. `inputs` and `outputs` hold one buffer pointer per
    /// channel, each `frames` long.
    @inlinable @_noLocks
    public mutating func render(inputs input: UnsafePointer<UnsafePointer<Float>>,
                                outputs output: UnsafePointer<UnsafeMutablePointer<Float>>,
                                frames: Int) {
        guard frames > 0 && frames <= maxFrames else {
            for m in 0..<outputs { (output[m]).update(repeating: 0, count: max(0, frames)) }
            return
        }
        advance(frames: frames)
        // The sources' EQ first: the mix reads what it shaped.
        let input = shapeSources(input, frames: frames)
        mixInput = input
        if progressFrames != frames {
            let scale = 1 / Float(frames)
            for k in 0..<frames { progress[k] = Float(k + 1) * scale }
            progressFrames = frames
        }
        let ramping = rampingRows > 0
        var buffersMoved = false
        for n in 0..<inputs where lastInputs[n] != UnsafeRawPointer(input[n]) {
            lastInputs[n] = UnsafeRawPointer(input[n])
            buffersMoved = true
        }
        if buffersMoved { for m in 0..<outputs { gatheredValid[m] = false } }
        var start = 0
        while start + framesPerBlock <= frames {
            mixBlock(input, output, start: start, ramping: ramping)
            start += framesPerBlock
        }
        if start < frames {
            mixTail(input, output, start: start, length: frames - start)
        }
        // Talk joins after the outputs' level and mute, before their EQ.
        talk(output, frames: frames)
        shapeOutputs(output, frames: frames)
    }

    /// Moves the moving ramps on by one period, then refolds what they touched.
    @inlinable @_noLocks
    mutating func advance(frames: Int) {
        if movingCount > 0 { advanceRamps(frames: frames) }
        riseScale = 16 / Float(frames)
        refold()
    }
}
