/// The audio-thread side of the mixer: every parameter's ramp and the mixing
/// loop. All memory is allocated in `init`, on the control side; everything
/// after that is `@_noLocks`, which the compiler checks: no allocation, no
/// locks, no C calls.
///
/// Per period: the ramps that are moving advance by the period's length, the
/// effective gain of every crosspoint whose path moved is recomputed, and each
/// output is the sum of its inputs, each weighted by a gain that goes linearly
/// from its value at the start of the period to its value at the end (a
/// per-sample ramp). docs/performance.md explains the layout and the loops.
///
/// Layout. The ramps are kept as structure-of-arrays (positions, values,
/// targets, steps, samples remaining), in blocks padded to 16 lanes so that a
/// ramp update is one `SIMD16` operation for 16 parameters: source volumes,
/// pans, mute and solo gates, output volumes and mute gates, master volume,
/// master mute gate, then the crosspoints output-major (one padded row of
/// inputs per output, the order the mixing loop reads them in). Only chunks of
/// 16 that hold a moving ramp are visited, through a list kept on the fly.
///
/// Each output row keeps its effective gains at the start of the period and
/// their change over the period, and a compact list of the inputs whose gain
/// is not zero. A row is recomputed only when one of the ramps on its paths
/// moved; the list is rebuilt only when the set of inputs in use changes.
public struct RenderKernel: ~Copyable {
    /// Frames mixed at a time: four 16-lane vectors held in registers.
    public static let block = 64
    /// Width of a ramp chunk, and the padding of every block of parameters.
    @inlinable static var lanes: Int { 16 }

    public let inputs: Int
    public let outputs: Int
    public let maxFrames: Int
    public let panLaw: PanLaw
    public let parameters: ParameterIndex

    // MARK: Ramps, structure-of-arrays

    /// Where each block of ramps lives (`RampLayout`), and its figures by name.
    public let rampLayout: RampLayout
    @inlinable var inputStride: Int { rampLayout.inputStride }
    @inlinable var outputStride: Int { rampLayout.outputStride }
    @inlinable var outputBase: Int { rampLayout.outputBase }
    @inlinable var masterBase: Int { rampLayout.masterBase }
    @inlinable var crosspointBase: Int { rampLayout.crosspointBase }
    @inlinable var slots: Int { rampLayout.slots }

    @usableFromInline let position: UnsafeMutablePointer<Float>
    @usableFromInline let value: UnsafeMutablePointer<Float>
    @usableFromInline let targetPosition: UnsafeMutablePointer<Float>
    @usableFromInline let targetValue: UnsafeMutablePointer<Float>
    @usableFromInline let step: UnsafeMutablePointer<Float>
    @usableFromInline let remaining: UnsafeMutablePointer<Int32>

    /// Chunks (of 16 ramps) holding at least one moving ramp: a list, and a
    /// flag per chunk saying whether it is in the list.
    @usableFromInline let movingChunks: UnsafeMutablePointer<Int32>
    @usableFromInline let chunkListed: UnsafeMutablePointer<Bool>
    @usableFromInline var movingCount = 0
    /// Per level ramp: the factor its gain moves by in one period while its
    /// fader position stays in one segment of the law (where dB is linear in
    /// position, so the gain is geometric in time).
    @usableFromInline let ratio: UnsafeMutablePointer<Float>
    /// Per chunk: periods until its gains are computed exactly again from
    /// their positions (bounding the rounding drift of the ratios).
    @usableFromInline let periodsToResync: UnsafeMutablePointer<Int32>
    /// The period length the ratios were computed for.
    @usableFromInline var ratioFrames = 0

    // MARK: Folded gains

    /// Which side of a stereo pair each output is.
    @usableFromInline let sides: UnsafeMutablePointer<OutputLayout.Side>
    /// Per source: volume · mute · solo gate, and that times the pan gain for
    /// a left and a right output. Padded to `inputStride` with zeros.
    @usableFromInline let sourceMono: UnsafeMutablePointer<Float>
    @usableFromInline let sourceLeft: UnsafeMutablePointer<Float>
    @usableFromInline let sourceRight: UnsafeMutablePointer<Float>
    /// Per output: volume · mute · master volume · master mute.
    @usableFromInline let outputGains: UnsafeMutablePointer<Float>

    /// Effective gain of each crosspoint at the start of the period, and its
    /// change over the period; [output · inputStride + input].
    @usableFromInline let gainStart: UnsafeMutablePointer<Float>
    @usableFromInline let gainDelta: UnsafeMutablePointer<Float>
    /// The gain at the end of the period (the next period's start).
    @usableFromInline let gainEnd: UnsafeMutablePointer<Float>
    /// −1 where the crosspoint is in use this period (start or end non-zero), else 0.
    @usableFromInline let inUse: UnsafeMutablePointer<Int32>
    /// Per output: the inputs in use, and how many.
    @usableFromInline let activeInputs: UnsafeMutablePointer<Int32>
    @usableFromInline let activeCount: UnsafeMutablePointer<Int>
    /// Per output, in list order: the start gain and change of each input in
    /// use, contiguous for the mixing loop.
    @usableFromInline let compactStart: UnsafeMutablePointer<Float>
    @usableFromInline let compactDelta: UnsafeMutablePointer<Float>
    /// Per output, in list order: the buffer of each input in use, so that
    /// the mixing loop reads samples through one pointer rather than list →
    /// buffer pointer → samples. Kept while the lists and the input buffers
    /// stay the same (JACK hands out the same buffers period after period
    /// until connections change).
    @usableFromInline let gathered: UnsafeMutablePointer<UnsafeRawPointer>
    @usableFromInline let gatheredValid: UnsafeMutablePointer<Bool>
    /// The input buffers of the last period.
    @usableFromInline let lastInputs: UnsafeMutablePointer<UnsafeRawPointer?>
    /// Per output: gains differ between start and end of this period.
    @usableFromInline let rowRamping: UnsafeMutablePointer<Bool>
    /// Per output: some gain on its paths moved; recompute the row.
    @usableFromInline let rowDirty: UnsafeMutablePointer<Bool>
    /// Per chunk of 16 sources: recompute their folded gains.
    @usableFromInline let sourceChunkDirty: UnsafeMutablePointer<Bool>
    @usableFromInline var anyRowDirty = false
    @usableFromInline var allRowsDirty = false
    @usableFromInline var anySourceDirty = false
    @usableFromInline var outputGainsDirty = false
    @usableFromInline var rampingRows = 0
    /// Outputs that use every input.
    @usableFromInline var denseRows = 0

    // MARK: Scratch

    /// (k + 1) / frames: how far through the period sample k is.
    @usableFromInline let progress: UnsafeMutablePointer<Float>
    @usableFromInline var progressFrames = 0

    public init(inputs: Int, outputs: Int, maxFrames: Int = 8192, panLaw: PanLaw,
                layout: OutputLayout, scene: Scene) {
        precondition(scene.inputCount == inputs && scene.outputCount == outputs)
        precondition(layout.sides.count == outputs)
        self.inputs = inputs
        self.outputs = outputs
        self.maxFrames = maxFrames
        self.panLaw = panLaw
        parameters = ParameterIndex(inputs: inputs, outputs: outputs)
        let rampLayout = RampLayout(inputs: inputs, outputs: outputs)
        self.rampLayout = rampLayout
        let inputStride = rampLayout.inputStride, outputStride = rampLayout.outputStride, slots = rampLayout.slots
        let lanes = Self.lanes

        func floats(_ count: Int) -> UnsafeMutablePointer<Float> {
            let raw = UnsafeMutableRawPointer.allocate(byteCount: max(1, count) * 4, alignment: 64)
            return raw.initializeMemory(as: Float.self, repeating: 0, count: max(1, count))
        }
        func ints(_ count: Int) -> UnsafeMutablePointer<Int32> {
            let raw = UnsafeMutableRawPointer.allocate(byteCount: max(1, count) * 4, alignment: 64)
            return raw.initializeMemory(as: Int32.self, repeating: 0, count: max(1, count))
        }
        position = floats(slots)
        value = floats(slots)
        targetPosition = floats(slots)
        targetValue = floats(slots)
        step = floats(slots)
        remaining = ints(slots)
        movingChunks = ints(slots / lanes)
        ratio = floats(slots)
        periodsToResync = ints(slots / lanes)
        chunkListed = .allocate(capacity: slots / lanes)
        chunkListed.initialize(repeating: false, count: slots / lanes)

        sides = .allocate(capacity: max(1, outputs))
        sides.initialize(from: layout.sides, count: outputs)
        sourceMono = floats(inputStride)
        sourceLeft = floats(inputStride)
        sourceRight = floats(inputStride)
        outputGains = floats(outputStride)
        gainStart = floats(outputs * inputStride)
        gainDelta = floats(outputs * inputStride)
        gainEnd = floats(outputs * inputStride)
        inUse = ints(outputs * inputStride)
        activeInputs = ints(outputs * inputs)
        compactStart = floats(outputs * inputs)
        compactDelta = floats(outputs * inputs)
        gathered = .allocate(capacity: max(1, outputs * inputs))
        gatheredValid = .allocate(capacity: max(1, outputs))
        gatheredValid.initialize(repeating: false, count: max(1, outputs))
        lastInputs = .allocate(capacity: max(1, inputs))
        lastInputs.initialize(repeating: nil, count: max(1, inputs))
        activeCount = .allocate(capacity: max(1, outputs))
        activeCount.initialize(repeating: 0, count: max(1, outputs))
        rowRamping = .allocate(capacity: max(1, outputs))
        rowRamping.initialize(repeating: false, count: max(1, outputs))
        rowDirty = .allocate(capacity: max(1, outputs))
        rowDirty.initialize(repeating: false, count: max(1, outputs))
        sourceChunkDirty = .allocate(capacity: inputStride / lanes)
        sourceChunkDirty.initialize(repeating: false, count: inputStride / lanes)
        progress = floats(maxFrames)

        for change in Self.changes(toReach: scene, parameters: parameters, seconds: 0) {
            let i = slot(ofRamp: Int(change.ramp))
            position[i] = change.position
            targetPosition[i] = change.position
            value[i] = change.value
            targetValue[i] = change.value
        }
        // Fold everything once; a fresh kernel starts settled.
        for c in 0..<(inputStride / lanes) { sourceChunkDirty[c] = true }
        anySourceDirty = true
        outputGainsDirty = true
        allRowsDirty = true
        refold()
        for m in 0..<outputs where rowRamping[m] { settle(row: m) }
        rampingRows = 0
    }

    deinit {
        for pointer in [position, value, targetPosition, targetValue, step, sourceMono, sourceLeft, sourceRight,
                        outputGains, gainStart, gainDelta, gainEnd, progress] {
            UnsafeMutableRawPointer(pointer).deallocate()
        }
        for pointer in [remaining, movingChunks, inUse, activeInputs, periodsToResync] {
            UnsafeMutableRawPointer(pointer).deallocate()
        }
        UnsafeMutableRawPointer(ratio).deallocate()
        UnsafeMutableRawPointer(compactStart).deallocate()
        UnsafeMutableRawPointer(compactDelta).deallocate()
        chunkListed.deallocate()
        gathered.deallocate()
        gatheredValid.deallocate()
        lastInputs.deallocate()
        sides.deallocate()
        activeCount.deallocate()
        rowRamping.deallocate()
        rowDirty.deallocate()
        sourceChunkDirty.deallocate()
    }

    /// The changes that take every parameter to its value in `scene`.
    public static func changes(toReach scene: Scene, parameters p: ParameterIndex,
                               seconds: Float) -> [Change] {
        var changes: [Change] = []
        changes.reserveCapacity(p.count)
        func level(_ ramp: Int, _ gain: Float) {
            changes.append(Change(ramp: Int32(ramp), position: FaderLaw.position(gain: gain),
                                  value: gain, seconds: seconds))
        }
        func linear(_ ramp: Int, _ value: Float) {
            changes.append(Change(ramp: Int32(ramp), position: value, value: value, seconds: seconds))
        }
        for (i, source) in scene.sources.enumerated() { level(p.sourceVolume(i + 1), source.volume) }
        for (i, source) in scene.sources.enumerated() { linear(p.sourcePan(i + 1), source.pan) }
        for (i, source) in scene.sources.enumerated() { linear(p.sourceMute(i + 1), source.mute ? 0 : 1) }
        for i in scene.sources.indices {
            linear(p.sourceSolo(i + 1), scene.isSilencedBySolo(i + 1) ? 0 : 1)
        }
        for (i, output) in scene.outputs.enumerated() { level(p.outputVolume(i + 1), output.volume) }
        for (i, output) in scene.outputs.enumerated() { linear(p.outputMute(i + 1), output.mute ? 0 : 1) }
        level(p.masterVolume, scene.master.volume)
        linear(p.masterMute, scene.master.mute ? 0 : 1)
        for input in 0..<p.inputs {
            for output in 0..<p.outputs {
                level(p.crosspoint(input + 1, output + 1), scene.crosspoints[input + 1, output + 1])
            }
        }
        return changes
    }

    /// The value a parameter has reached (for tests and diagnostics).
    public func value(ofRamp index: Int) -> Float { value[slot(ofRamp: index)] }

    /// A parameter's ramp as it stands (for tests and diagnostics).
    public func ramp(_ index: Int) -> Ramp {
        let i = slot(ofRamp: index)
        var ramp = Ramp(shape: parameters.shape(of: index), position: position[i], value: value[i])
        ramp.targetPosition = targetPosition[i]
        ramp.targetValue = targetValue[i]
        ramp.step = step[i]
        ramp.remaining = Int(remaining[i])
        return ramp
    }

    /// Crosspoints in use on each output, for diagnostics and tests.
    public func inputsInUse(output m: Int) -> [Int] {
        (0..<activeCount[m]).map { Int(activeInputs[m * inputs + $0]) }
    }

    /// Whether any ramp is still moving or any gain still changing.
    public var isSettled: Bool { movingCount == 0 && rampingRows == 0 && !anyRowDirty && !allRowsDirty }

    // MARK: - Audio thread: changes

    /// Where the ramp a `ParameterIndex` number names lives in the arrays.
    @inlinable @_noLocks
    func slot(ofRamp r: Int) -> Int { rampLayout.slot(ofRamp: r) }

    /// Starts the ramp a change names (control side, while no audio thread
    /// runs: tests). Changes naming no parameter are ignored.
    public mutating func apply(_ change: Change, sampleRate: Int) {
        let index = Int(change.ramp)
        guard index >= 0 && index < parameters.count else { return }
        var staged = change
        staged.ramp = Int32(truncatingIfNeeded: slot(ofRamp: index))
        withUnsafePointer(to: staged) { apply(staged: $0, count: 1, sampleRate: sampleRate) }
    }

    /// Starts the ramps of changes staged by slot (`ChangeBatch`: `ramp`
    /// holds the slot, in slot order). A chunk's bookkeeping is done once
    /// for a run of changes in it: a whole-scene recall costs a few stores
    /// per crosspoint. Slots out of range are ignored.
    @inlinable @_noLocks
    public mutating func apply(staged changes: UnsafePointer<Change>, count: Int, sampleRate: Int) {
        let rate = Float(sampleRate)
        var markedChunk = -1, listedChunk = -1
        for k in 0..<count {
            let change = changes[k]
            let i = Int(change.ramp)
            guard i >= 0 && i < slots else { continue }
            let samples = Int(min(max(change.seconds, 0), 3600) * rate)
            targetPosition[i] = change.position
            targetValue[i] = change.value
            let chunk = i / Self.lanes
            if samples <= 0 {
                position[i] = change.position
                value[i] = change.value
                remaining[i] = 0
            } else {
                step[i] = (change.position - position[i]) / Float(samples)
                remaining[i] = Int32(samples)
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
            if chunk != markedChunk || (i >= outputBase && i < masterBase) {
                markedChunk = chunk
                markChanged(chunkAt: chunk * Self.lanes, lane: i - chunk * Self.lanes, whole: false)
            }
        }
    }

    /// Records what a change in the chunk starting at internal index `base`
    /// affects: one crosspoint row, some sources (all rows), some outputs'
    /// rows, or the master (all rows). `whole`: any lane of the chunk may
    /// have changed, not only `lane`.
    @inlinable @inline(__always) @_noLocks
    mutating func markChanged(chunkAt base: Int, lane: Int, whole: Bool) {
        if base >= crosspointBase {
            let row = (base - crosspointBase) / inputStride
            rowDirty[row] = true
            anyRowDirty = true
        } else if base < outputBase {
            sourceChunkDirty[(base % inputStride) / Self.lanes] = true
            anySourceDirty = true
        } else if base < masterBase {
            outputGainsDirty = true
            let first = (base - outputBase) % outputStride
            if whole {
                for m in first..<min(outputs, first + Self.lanes) { rowDirty[m] = true }
            } else if first + lane < outputs {
                rowDirty[first + lane] = true
            }
            anyRowDirty = true
        } else {
            outputGainsDirty = true
            allRowsDirty = true
        }
    }

    // MARK: - Audio thread: one period

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
        while start + Self.block <= frames {
            mixBlock(input, output, start: start, ramping: ramping)
            start += Self.block
        }
        if start < frames {
            let length = frames - start
            for m in 0..<outputs { mixTail(output: m, input, into: output[m] + start, start: start, length: length) }
        }
    }

    /// Moves the moving ramps on by one period, then refolds what they touched.
    @inlinable @_noLocks
    mutating func advance(frames: Int) {
        if movingCount > 0 { advanceRamps(frames: frames) }
        refold()
    }

    /// Every chunk holding a moving ramp, one period on. Level ramps take the
    /// ratio path unless it is time, or needed, to compute them exactly.
    /// (Kept out of line, and the rare paths too: the optimiser stops
    /// inlining into a function past a certain size.)
    @inlinable @inline(never) @_noLocks
    mutating func advanceRamps(frames: Int) {
        if frames != ratioFrames {
            ratioFrames = frames
            for c in 0..<movingCount { periodsToResync[Int(movingChunks[c])] = -1 }
        }
        var c = 0
        while c < movingCount {
            let chunk = Int(movingChunks[c])
            let base = chunk * Self.lanes
            let level = base >= crosspointBase || base < inputStride
                || (base >= outputBase && base < outputBase + outputStride) || base == masterBase
            let stillMoving: Bool
            if !level {
                stillMoving = advanceLinearly(at: base, frames: frames)
            } else if periodsToResync[chunk] > 0, let moving = advanceByRatio(at: base, frames: frames) {
                periodsToResync[chunk] -= 1
                stillMoving = moving
            } else {
                stillMoving = advanceExactly(chunk, at: base, frames: frames)
            }
            if stillMoving {
                c += 1
            } else {
                chunkListed[chunk] = false
                movingCount -= 1
                movingChunks[c] = movingChunks[movingCount]
            }
            markChanged(chunkAt: base, lane: 0, whole: true)
        }
    }

    /// The common case of a moving level chunk: each gain times its ratio.
    /// Returns nil, having changed nothing, if a ramp would leave its segment
    /// of the fader law or reach silence (the exact path handles it).
    /// Position and value are computed for both halves of 8 lanes (on AVX2 an
    /// 8-lane mask is one register) before anything is stored.
    @inlinable @inline(__always) @_noLocks
    mutating func advanceByRatio(at base: Int, frames: Int) -> Bool? {
        typealias V = SIMD8<Float>
        typealias I = SIMD8<Int32>
        let n = I(repeating: Int32(truncatingIfNeeded: frames))
        let f = V(repeating: Float(frames))
        let rA = UnsafeRawPointer(remaining + base).loadUnaligned(as: I.self)
        let rB = UnsafeRawPointer(remaining + base + 8).loadUnaligned(as: I.self)
        let goesA = rA .> n, goesB = rB .> n
        let landsA = (rA .> I()) .& (rA .<= n), landsB = (rB .> I()) .& (rB .<= n)
        let p0A = UnsafeRawPointer(position + base).loadUnaligned(as: V.self)
        let p0B = UnsafeRawPointer(position + base + 8).loadUnaligned(as: V.self)
        let steppedA = p0A + UnsafeRawPointer(step + base).loadUnaligned(as: V.self) * f
        let steppedB = p0B + UnsafeRawPointer(step + base + 8).loadUnaligned(as: V.self) * f
        // A segment boundary lies between the old and new position, or the
        // new one is silence. (Written out: the optimiser does not inline a
        // helper here.)
        let t1 = V(repeating: 0.0625), t2 = V(repeating: 0.25), t3 = V(repeating: 0.5)
        let crossedA = ((p0A .>= t1) .^ (steppedA .>= t1)) .| ((p0A .>= t2) .^ (steppedA .>= t2))
            .| ((p0A .>= t3) .^ (steppedA .>= t3)) .| (steppedA .<= V())
        let crossedB = ((p0B .>= t1) .^ (steppedB .>= t1)) .| ((p0B .>= t2) .^ (steppedB .>= t2))
            .| ((p0B .>= t3) .^ (steppedB .>= t3)) .| (steppedB .<= V())
        if any(goesA .& crossedA) || any(goesB .& crossedB) { return nil }
        let v0A = UnsafeRawPointer(value + base).loadUnaligned(as: V.self)
        let v0B = UnsafeRawPointer(value + base + 8).loadUnaligned(as: V.self)
        let p1A = p0A.replacing(with: steppedA, where: goesA)
            .replacing(with: UnsafeRawPointer(targetPosition + base).loadUnaligned(as: V.self), where: landsA)
        let p1B = p0B.replacing(with: steppedB, where: goesB)
            .replacing(with: UnsafeRawPointer(targetPosition + base + 8).loadUnaligned(as: V.self), where: landsB)
        let v1A = v0A.replacing(with: v0A * UnsafeRawPointer(ratio + base).loadUnaligned(as: V.self), where: goesA)
            .replacing(with: UnsafeRawPointer(targetValue + base).loadUnaligned(as: V.self), where: landsA)
        let v1B = v0B.replacing(with: v0B * UnsafeRawPointer(ratio + base + 8).loadUnaligned(as: V.self), where: goesB)
            .replacing(with: UnsafeRawPointer(targetValue + base + 8).loadUnaligned(as: V.self), where: landsB)
        UnsafeMutableRawPointer(position + base).storeBytes(of: p1A, as: V.self)
        UnsafeMutableRawPointer(position + base + 8).storeBytes(of: p1B, as: V.self)
        UnsafeMutableRawPointer(value + base).storeBytes(of: v1A, as: V.self)
        UnsafeMutableRawPointer(value + base + 8).storeBytes(of: v1B, as: V.self)
        UnsafeMutableRawPointer(remaining + base)
            .storeBytes(of: rA.replacing(with: rA &- n, where: goesA).replacing(with: I(), where: landsA), as: I.self)
        UnsafeMutableRawPointer(remaining + base + 8)
            .storeBytes(of: rB.replacing(with: rB &- n, where: goesB).replacing(with: I(), where: landsB), as: I.self)
        return any(goesA) || any(goesB)
    }

    /// A level chunk computed from its positions by the fader law, with new
    /// ratios: at the start of a ramp, on a segment change, at silence, and
    /// every 64 periods (which bounds the rounding drift of the ratios to
    /// about 2·10⁻⁵ of the gain, 0.0002 dB).
    @inlinable @inline(never) @_noLocks
    mutating func advanceExactly(_ chunk: Int, at base: Int, frames: Int) -> Bool {
        let low = advanceHalf(at: base, frames: frames, exact: true)
        let high = advanceHalf(at: base + 8, frames: frames, exact: true)
        // After a fresh start, spread the next exact periods of chunks that
        // started together over 32 periods; then every 64.
        periodsToResync[chunk] = periodsToResync[chunk] < 0 ? Int32(truncatingIfNeeded: 32 + (chunk &* 37) & 31) : 63
        return low || high
    }

    /// A chunk of pans or gates: the value is the position.
    @inlinable @inline(never) @_noLocks
    mutating func advanceLinearly(at base: Int, frames: Int) -> Bool {
        let low = advanceHalf(at: base, frames: frames, exact: false)
        let high = advanceHalf(at: base + 8, frames: frames, exact: false)
        return low || high
    }

    /// Advances 8 ramps: by the fader law from the position (and a new ratio),
    /// or linearly (value = position). Returns whether any is still moving.
    @inlinable @inline(__always) @_noLocks
    mutating func advanceHalf(at base: Int, frames: Int, exact: Bool) -> Bool {
        typealias V = SIMD8<Float>
        typealias I = SIMD8<Int32>
        let r = UnsafeRawPointer(remaining + base).loadUnaligned(as: I.self)
        let n = I(repeating: Int32(truncatingIfNeeded: frames))
        let goes = r .> n
        let lands = (r .> I()) .& (r .<= n)
        let p0 = UnsafeRawPointer(position + base).loadUnaligned(as: V.self)
        let st = UnsafeRawPointer(step + base).loadUnaligned(as: V.self)
        let tp = UnsafeRawPointer(targetPosition + base).loadUnaligned(as: V.self)
        let tv = UnsafeRawPointer(targetValue + base).loadUnaligned(as: V.self)
        let v0 = UnsafeRawPointer(value + base).loadUnaligned(as: V.self)
        let advance = st * V(repeating: Float(frames))
        let p1 = p0.replacing(with: p0 + advance, where: goes).replacing(with: tp, where: lands)
        let moved: V
        if exact {
            moved = Self.faderGain(p1)
            let perPeriod = Self.decibelsPerPosition(p1) * advance * V(repeating: 0.166_096_4)
            UnsafeMutableRawPointer(ratio + base).storeBytes(of: Self.exp2(perPeriod), as: V.self)
        } else {
            moved = p1
        }
        let v1 = v0.replacing(with: moved, where: goes).replacing(with: tv, where: lands)
        let r1 = r.replacing(with: r &- n, where: goes).replacing(with: I(), where: lands)
        UnsafeMutableRawPointer(position + base).storeBytes(of: p1, as: V.self)
        UnsafeMutableRawPointer(value + base).storeBytes(of: v1, as: V.self)
        UnsafeMutableRawPointer(remaining + base).storeBytes(of: r1, as: I.self)
        return any(goes)
    }

    /// Recomputes the folded gains that some change touched: sources, outputs,
    /// then each dirty row; a row that ramped last period and is not dirty
    /// now settles (its start becomes its end).
    @inlinable @_noLocks
    mutating func refold() {
        if anySourceDirty {
            for chunk in 0..<(inputStride / Self.lanes) where sourceChunkDirty[chunk] {
                sourceChunkDirty[chunk] = false
                for n in (chunk * Self.lanes)..<min(inputs, (chunk + 1) * Self.lanes) { foldSource(n) }
            }
            anySourceDirty = false
            allRowsDirty = true
        }
        if outputGainsDirty {
            let master = value[masterBase] * value[masterBase + Self.lanes]
            for m in 0..<outputs {
                outputGains[m] = value[outputBase + m] * value[outputBase + outputStride + m] * master
            }
            outputGainsDirty = false
        }
        guard anyRowDirty || allRowsDirty || rampingRows > 0 else { return }
        var ramping = 0
        for m in 0..<outputs {
            if allRowsDirty || rowDirty[m] {
                rowDirty[m] = false
                if fold(row: m) { ramping += 1 }
            } else if rowRamping[m] {
                settle(row: m)
            }
        }
        rampingRows = ramping
        anyRowDirty = false
        allRowsDirty = false
    }

    /// Source n's gain before the matrix, alone and through each side of a pan.
    @inlinable @_noLocks
    mutating func foldSource(_ n: Int) {
        let mono = value[n] * value[2 * inputStride + n] * value[3 * inputStride + n]
        let pan = panLaw.gains(pan: value[inputStride + n])
        sourceMono[n] = mono
        sourceLeft[n] = mono * pan.left
        sourceRight[n] = mono * pan.right
    }

    /// Recomputes output m's gains at the end of the period (crosspoint ·
    /// source · pan side · output), makes the old end the start, and returns
    /// whether any gain moves in this period. Rebuilds the row's list of
    /// inputs in use if that set changed.
    @inlinable @_noLocks
    mutating func fold(row m: Int) -> Bool {
        typealias V = SIMD8<Float>
        typealias I = SIMD8<Int32>
        let row = m * inputStride
        let source: UnsafeMutablePointer<Float>
        switch sides[m] {
        case .mono: source = sourceMono
        case .left: source = sourceLeft
        case .right: source = sourceRight
        }
        let out = V(repeating: outputGains[m])
        let crosspoints = value + crosspointBase + row
        let yes = I(repeating: -1)
        // Integer accumulators (−1 where something happened): cheaper to
        // combine across iterations than masks.
        var changes = I(), usage = I()
        var o = 0
        while o < inputStride {
            let x = UnsafeRawPointer(crosspoints + o).loadUnaligned(as: V.self)
            let s = UnsafeRawPointer(source + o).loadUnaligned(as: V.self)
            var g1 = x * s * out
            // No denormals and nothing non-finite ever reaches the mix.
            g1 = V().replacing(with: g1, where: (g1 .>= V(repeating: 1e-20)) .& (g1 .<= V(repeating: 1e6)))
            let g0 = UnsafeRawPointer(gainEnd + row + o).loadUnaligned(as: V.self)
            UnsafeMutableRawPointer(gainStart + row + o).storeBytes(of: g0, as: V.self)
            UnsafeMutableRawPointer(gainEnd + row + o).storeBytes(of: g1, as: V.self)
            UnsafeMutableRawPointer(gainDelta + row + o).storeBytes(of: g1 - g0, as: V.self)
            changes |= I().replacing(with: yes, where: g1 .!= g0)
            let used = I().replacing(with: yes, where: (g0 .!= V()) .| (g1 .!= V()))
            let before = UnsafeRawPointer(inUse + row + o).loadUnaligned(as: I.self)
            usage |= used ^ before
            UnsafeMutableRawPointer(inUse + row + o).storeBytes(of: used, as: I.self)
            o += 8
        }
        if usage != I() { relist(row: m) }
        compact(row: m)
        let moving = changes != I()
        rowRamping[m] = moving
        return moving
    }

    /// A row that ramped last period and did not move since: its start is its
    /// end, and crosspoints that reached 0 leave its list.
    @inlinable @_noLocks
    mutating func settle(row m: Int) {
        typealias V = SIMD8<Float>
        typealias I = SIMD8<Int32>
        let row = m * inputStride
        let yes = I(repeating: -1)
        var usage = I()
        var o = 0
        while o < inputStride {
            let g = UnsafeRawPointer(gainEnd + row + o).loadUnaligned(as: V.self)
            UnsafeMutableRawPointer(gainStart + row + o).storeBytes(of: g, as: V.self)
            UnsafeMutableRawPointer(gainDelta + row + o).storeBytes(of: V(), as: V.self)
            let used = I().replacing(with: yes, where: g .!= V())
            let before = UnsafeRawPointer(inUse + row + o).loadUnaligned(as: I.self)
            usage |= used ^ before
            UnsafeMutableRawPointer(inUse + row + o).storeBytes(of: used, as: I.self)
            o += 8
        }
        if usage != I() { relist(row: m) }
        compact(row: m)
        rowRamping[m] = false
    }

    /// Copies output m's gains of the inputs in use into list order (rows
    /// that use only some inputs).
    @inlinable @_noLocks
    mutating func compact(row m: Int) {
        // A row using every input is read in place (list order = input order).
        guard activeCount[m] < inputs else { return }
        let list = activeInputs + m * inputs
        let starts = gainStart + m * inputStride, deltas = gainDelta + m * inputStride
        let toStart = compactStart + m * inputs, toDelta = compactDelta + m * inputs
        for j in 0..<activeCount[m] {
            let n = Int(list[j])
            toStart[j] = starts[n]
            toDelta[j] = deltas[n]
        }
    }

    /// Rebuilds output m's list of inputs in use.
    @inlinable @_noLocks
    mutating func relist(row m: Int) {
        let used = inUse + m * inputStride
        let list = activeInputs + m * inputs
        var count = 0
        for n in 0..<inputs where used[n] != 0 {
            list[count] = Int32(truncatingIfNeeded: n)
            count += 1
        }
        if activeCount[m] == inputs { denseRows -= 1 }
        if count == inputs { denseRows += 1 }
        activeCount[m] = count
        gatheredValid[m] = false
    }

    // MARK: - Audio thread: mixing

    /// 64 frames of every output. Outputs that use every input are mixed in
    /// groups, 16 frames at a time, so that each input sample loaded serves
    /// several outputs: six (or four) at a time while nothing ramps, three
    /// while some gains ramp (each output then needs two accumulators, and
    /// AVX2 has 16 registers). Every other output is mixed alone from its
    /// list of inputs in use.
    @inlinable @_noLocks
    func mixBlock(_ input: UnsafePointer<UnsafePointer<Float>>,
                  _ output: UnsafePointer<UnsafeMutablePointer<Float>>, start: Int, ramping: Bool) {
        guard denseRows > 0 else {
            mixEachAlone(input, output, start: start)
            return
        }
        // Groups of outputs that all use every input: six (or four) while
        // nothing ramps, three while something does; the rest alone.
        var m = 0
        while m < outputs {
            if ramping {
                if m + 3 <= outputs && isDense(m, 3) {
                    if rowRamping[m] || rowRamping[m + 1] || rowRamping[m + 2] {
                        for tile in 0..<4 { mixThreeRamping(first: m, input, output, start: start, tile: tile * 16) }
                    } else {
                        for tile in 0..<4 { mixThree(first: m, input, output, start: start, tile: tile * 16) }
                    }
                    m += 3
                    continue
                }
            } else if m + 6 <= outputs && isDense(m, 6) {
                for tile in 0..<4 { mixSix(first: m, input, output, start: start, tile: tile * 16) }
                m += 6
                continue
            } else if m + 4 <= outputs && isDense(m, 4) {
                for tile in 0..<4 { mixFour(first: m, input, output, start: start, tile: tile * 16) }
                m += 4
                continue
            }
            if m + 2 <= outputs && isDense(m, 2) {
                if rowRamping[m] || rowRamping[m + 1] {
                    for tile in 0..<4 { mixTwoRamping(first: m, input, output, start: start, tile: tile * 16) }
                } else {
                    for tile in 0..<4 { mixTwo(first: m, input, output, start: start, tile: tile * 16) }
                }
                m += 2
                continue
            }
            mixAlone(output: m, input, output, start: start)
            m += 1
        }
    }

    /// Whether outputs m ..< m + count all use every input.
    @inlinable @inline(__always) @_noLocks
    func isDense(_ m: Int, _ count: Int) -> Bool {
        for r in m..<(m + count) where activeCount[r] != inputs { return false }
        return true
    }

    /// One output mixed alone from its list, among outputs mixed in groups.
    @inlinable @inline(never) @_noLocks
    func mixAlone(output m: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                  _ output: UnsafePointer<UnsafeMutablePointer<Float>>, start: Int) {
        mixOne(output: m, input, into: output[m] + start, start: start)
    }

    /// Every output mixed alone from its list (no output uses every input).
    @inlinable @inline(never) @_noLocks
    func mixEachAlone(_ input: UnsafePointer<UnsafePointer<Float>>,
                      _ output: UnsafePointer<UnsafeMutablePointer<Float>>, start: Int) {
        for m in 0..<outputs { mixOne(output: m, input, into: output[m] + start, start: start) }
    }

    /// Six outputs that use every input, settled, 16 frames from `start + tile`:
    /// twelve accumulator registers, each input's 16 samples loaded once.
    @inlinable @_noLocks
    func mixSix(first m: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                _ output: UnsafePointer<UnsafeMutablePointer<Float>>, start: Int, tile: Int) {
        typealias V = SIMD16<Float>
        let g0 = gainStart + m * inputStride
        let g1 = g0 + inputStride, g2 = g1 + inputStride, g3 = g2 + inputStride
        let g4 = g3 + inputStride, g5 = g4 + inputStride
        let offset = (start + tile) * 4
        var a = V(), b = V(), c = V(), d = V(), e = V(), f = V()
        for n in 0..<inputs {
            let x = UnsafeRawPointer(input[n]).loadUnaligned(fromByteOffset: offset, as: V.self)
            a = a.addingProduct(x, V(repeating: g0[n]))
            b = b.addingProduct(x, V(repeating: g1[n]))
            c = c.addingProduct(x, V(repeating: g2[n]))
            d = d.addingProduct(x, V(repeating: g3[n]))
            e = e.addingProduct(x, V(repeating: g4[n]))
            f = f.addingProduct(x, V(repeating: g5[n]))
        }
        UnsafeMutableRawPointer(output[m]).storeBytes(of: Self.sanitized(a), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 1]).storeBytes(of: Self.sanitized(b), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 2]).storeBytes(of: Self.sanitized(c), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 3]).storeBytes(of: Self.sanitized(d), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 4]).storeBytes(of: Self.sanitized(e), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 5]).storeBytes(of: Self.sanitized(f), toByteOffset: offset, as: V.self)
    }

    /// Four outputs that use every input, settled, 16 frames from `start + tile`.
    @inlinable @_noLocks
    func mixFour(first m: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                 _ output: UnsafePointer<UnsafeMutablePointer<Float>>, start: Int, tile: Int) {
        typealias V = SIMD16<Float>
        let g0 = gainStart + m * inputStride
        let g1 = g0 + inputStride, g2 = g1 + inputStride, g3 = g2 + inputStride
        let offset = (start + tile) * 4
        var a = V(), b = V(), c = V(), d = V()
        for n in 0..<inputs {
            let x = UnsafeRawPointer(input[n]).loadUnaligned(fromByteOffset: offset, as: V.self)
            a = a.addingProduct(x, V(repeating: g0[n]))
            b = b.addingProduct(x, V(repeating: g1[n]))
            c = c.addingProduct(x, V(repeating: g2[n]))
            d = d.addingProduct(x, V(repeating: g3[n]))
        }
        UnsafeMutableRawPointer(output[m]).storeBytes(of: Self.sanitized(a), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 1]).storeBytes(of: Self.sanitized(b), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 2]).storeBytes(of: Self.sanitized(c), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 3]).storeBytes(of: Self.sanitized(d), toByteOffset: offset, as: V.self)
    }

    /// Two outputs that use every input, settled, 16 frames (what is left
    /// over after the groups of six, four or three).
    @inlinable @_noLocks
    func mixTwo(first m: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                _ output: UnsafePointer<UnsafeMutablePointer<Float>>, start: Int, tile: Int) {
        typealias V = SIMD16<Float>
        let g0 = gainStart + m * inputStride, g1 = g0 + inputStride
        let offset = (start + tile) * 4
        var a = V(), b = V()
        for n in 0..<inputs {
            let x = UnsafeRawPointer(input[n]).loadUnaligned(fromByteOffset: offset, as: V.self)
            a = a.addingProduct(x, V(repeating: g0[n]))
            b = b.addingProduct(x, V(repeating: g1[n]))
        }
        UnsafeMutableRawPointer(output[m]).storeBytes(of: Self.sanitized(a), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 1]).storeBytes(of: Self.sanitized(b), toByteOffset: offset, as: V.self)
    }

    /// Two outputs that use every input, some gains moving, 16 frames.
    @inlinable @_noLocks
    func mixTwoRamping(first m: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                       _ output: UnsafePointer<UnsafeMutablePointer<Float>>, start: Int, tile: Int) {
        typealias V = SIMD16<Float>
        let g0 = gainStart + m * inputStride, g1 = g0 + inputStride
        let d0 = gainDelta + m * inputStride, d1 = d0 + inputStride
        let offset = (start + tile) * 4
        var a = V(), b = V(), da = V(), db = V()
        for n in 0..<inputs {
            let x = UnsafeRawPointer(input[n]).loadUnaligned(fromByteOffset: offset, as: V.self)
            a = a.addingProduct(x, V(repeating: g0[n]))
            da = da.addingProduct(x, V(repeating: d0[n]))
            b = b.addingProduct(x, V(repeating: g1[n]))
            db = db.addingProduct(x, V(repeating: d1[n]))
        }
        let t = UnsafeRawPointer(progress + start + tile).loadUnaligned(as: V.self)
        UnsafeMutableRawPointer(output[m]).storeBytes(of: Self.sanitized(a.addingProduct(da, t)), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 1]).storeBytes(of: Self.sanitized(b.addingProduct(db, t)), toByteOffset: offset, as: V.self)
    }

    /// Three outputs that use every input, settled (while others ramp), 16 frames.
    @inlinable @_noLocks
    func mixThree(first m: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                  _ output: UnsafePointer<UnsafeMutablePointer<Float>>, start: Int, tile: Int) {
        typealias V = SIMD16<Float>
        let g0 = gainStart + m * inputStride
        let g1 = g0 + inputStride, g2 = g1 + inputStride
        let offset = (start + tile) * 4
        var a = V(), b = V(), c = V()
        for n in 0..<inputs {
            let x = UnsafeRawPointer(input[n]).loadUnaligned(fromByteOffset: offset, as: V.self)
            a = a.addingProduct(x, V(repeating: g0[n]))
            b = b.addingProduct(x, V(repeating: g1[n]))
            c = c.addingProduct(x, V(repeating: g2[n]))
        }
        UnsafeMutableRawPointer(output[m]).storeBytes(of: Self.sanitized(a), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 1]).storeBytes(of: Self.sanitized(b), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 2]).storeBytes(of: Self.sanitized(c), toByteOffset: offset, as: V.self)
    }

    /// Three outputs that use every input, some gains moving, 16 frames: per
    /// output one accumulator for Σ g0·x and one for Σ d·x, so no two
    /// multiply-adds in a row wait for each other; then y = Σ g0·x + t·Σ d·x
    /// with t = (k + 1)/frames.
    @inlinable @_noLocks
    func mixThreeRamping(first m: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                         _ output: UnsafePointer<UnsafeMutablePointer<Float>>, start: Int, tile: Int) {
        typealias V = SIMD16<Float>
        let g0 = gainStart + m * inputStride
        let g1 = g0 + inputStride, g2 = g1 + inputStride
        let d0 = gainDelta + m * inputStride
        let d1 = d0 + inputStride, d2 = d1 + inputStride
        let offset = (start + tile) * 4
        var a = V(), b = V(), c = V(), da = V(), db = V(), dc = V()
        for n in 0..<inputs {
            let x = UnsafeRawPointer(input[n]).loadUnaligned(fromByteOffset: offset, as: V.self)
            a = a.addingProduct(x, V(repeating: g0[n]))
            da = da.addingProduct(x, V(repeating: d0[n]))
            b = b.addingProduct(x, V(repeating: g1[n]))
            db = db.addingProduct(x, V(repeating: d1[n]))
            c = c.addingProduct(x, V(repeating: g2[n]))
            dc = dc.addingProduct(x, V(repeating: d2[n]))
        }
        let t = UnsafeRawPointer(progress + start + tile).loadUnaligned(as: V.self)
        UnsafeMutableRawPointer(output[m]).storeBytes(of: Self.sanitized(a.addingProduct(da, t)), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 1]).storeBytes(of: Self.sanitized(b.addingProduct(db, t)), toByteOffset: offset, as: V.self)
        UnsafeMutableRawPointer(output[m + 2]).storeBytes(of: Self.sanitized(c.addingProduct(dc, t)), toByteOffset: offset, as: V.self)
    }

    /// One output, 64 frames, from its list of inputs in use, in four 16-lane
    /// accumulators kept in registers; an output with nothing in use is silence.
    @inlinable @inline(__always) @_noLocks
    func mixOne(output m: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                into out: UnsafeMutablePointer<Float>, start: Int) {
        typealias V = SIMD16<Float>
        let o = UnsafeMutableRawPointer(out)
        let count = activeCount[m]
        guard count > 0 else {
            o.storeBytes(of: V(), as: V.self)
            o.storeBytes(of: V(), toByteOffset: 64, as: V.self)
            o.storeBytes(of: V(), toByteOffset: 128, as: V.self)
            o.storeBytes(of: V(), toByteOffset: 192, as: V.self)
            return
        }
        // (Wrapping arithmetic: these products are bounded by the sizes
        // allocated in init, and overflow checks cost instructions per output.)
        let dense = count == inputs
        let starts = dense ? gainStart + m &* inputStride : compactStart + m &* inputs
        let deltas = dense ? gainDelta + m &* inputStride : compactDelta + m &* inputs
        let offset = start &* 4
        let sources = gathered + m &* inputs
        if !gatheredValid[m] {
            let list = activeInputs + m &* inputs
            for j in 0..<count { sources[j] = UnsafeRawPointer(input[Int(list[j])]) }
            gatheredValid[m] = true
        }
        // The first input sets the accumulators: a lone crosspoint at unity
        // passes its input through bit for bit (−0 included).
        let g = V(repeating: starts[0])
        let x = sources[0].advanced(by: offset)
        var a0 = x.loadUnaligned(as: V.self) * g
        var a1 = x.loadUnaligned(fromByteOffset: 64, as: V.self) * g
        var a2 = x.loadUnaligned(fromByteOffset: 128, as: V.self) * g
        var a3 = x.loadUnaligned(fromByteOffset: 192, as: V.self) * g
        for j in 1..<count {
            let g = V(repeating: starts[j])
            let x = sources[j].advanced(by: offset)
            a0 = a0.addingProduct(x.loadUnaligned(as: V.self), g)
            a1 = a1.addingProduct(x.loadUnaligned(fromByteOffset: 64, as: V.self), g)
            a2 = a2.addingProduct(x.loadUnaligned(fromByteOffset: 128, as: V.self), g)
            a3 = a3.addingProduct(x.loadUnaligned(fromByteOffset: 192, as: V.self), g)
        }
        if rowRamping[m] {
            // Σ d·x in a second set of accumulators (the first set waits in
            // the output buffer), then y = Σ g0·x + t·Σ d·x, t = (k + 1)/frames.
            o.storeBytes(of: a0, as: V.self)
            o.storeBytes(of: a1, toByteOffset: 64, as: V.self)
            o.storeBytes(of: a2, toByteOffset: 128, as: V.self)
            o.storeBytes(of: a3, toByteOffset: 192, as: V.self)
            var b0 = V(), b1 = V(), b2 = V(), b3 = V()
            for j in 0..<count {
                let step = deltas[j]
                if step == 0 { continue }
                let d = V(repeating: step)
                let x = sources[j].advanced(by: offset)
                b0 = b0.addingProduct(x.loadUnaligned(as: V.self), d)
                b1 = b1.addingProduct(x.loadUnaligned(fromByteOffset: 64, as: V.self), d)
                b2 = b2.addingProduct(x.loadUnaligned(fromByteOffset: 128, as: V.self), d)
                b3 = b3.addingProduct(x.loadUnaligned(fromByteOffset: 192, as: V.self), d)
            }
            let t = UnsafeRawPointer(progress + start)
            a0 = o.loadUnaligned(as: V.self).addingProduct(b0, t.loadUnaligned(as: V.self))
            a1 = o.loadUnaligned(fromByteOffset: 64, as: V.self).addingProduct(b1, t.loadUnaligned(fromByteOffset: 64, as: V.self))
            a2 = o.loadUnaligned(fromByteOffset: 128, as: V.self).addingProduct(b2, t.loadUnaligned(fromByteOffset: 128, as: V.self))
            a3 = o.loadUnaligned(fromByteOffset: 192, as: V.self).addingProduct(b3, t.loadUnaligned(fromByteOffset: 192, as: V.self))
        }
        o.storeBytes(of: Self.sanitized(a0), as: V.self)
        o.storeBytes(of: Self.sanitized(a1), toByteOffset: 64, as: V.self)
        o.storeBytes(of: Self.sanitized(a2), toByteOffset: 128, as: V.self)
        o.storeBytes(of: Self.sanitized(a3), toByteOffset: 192, as: V.self)
    }

    /// A block shorter than 64 frames (the end of a period that is not a
    /// multiple of 64), sample by sample.
    @inlinable @_noLocks
    func mixTail(output m: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                 into out: UnsafeMutablePointer<Float>, start: Int, length: Int) {
        for k in 0..<length { out[k] = 0 }
        let list = activeInputs + m * inputs
        let starts = gainStart + m * inputStride
        let deltas = gainDelta + m * inputStride
        let ramping = rowRamping[m]
        for j in 0..<activeCount[m] {
            let n = Int(list[j])
            let g0 = starts[n], d = deltas[n]
            let x = input[n] + start
            let t = progress + start
            if !ramping || d == 0 {
                for k in 0..<length { out[k] += g0 * x[k] }
            } else {
                for k in 0..<length { out[k] += g0 * x[k] + d * (t[k] * x[k]) }
            }
        }
        for k in 0..<length { out[k] = Self.sanitized(out[k]) }
    }

    // MARK: - Arithmetic

    /// Zero for anything that is not a finite, normal-sized sample: NaN,
    /// infinities and denormals (and anything below 10⁻³⁰ or above 10³⁰).
    /// On the bits: |v| lies in [10⁻³⁰, 10³⁰] exactly when its bit pattern,
    /// shifted down by that of 10⁻³⁰, is at most the width of the range; the
    /// shift wraps everything below the range past the top, so one signed
    /// comparison decides.
    @inlinable @inline(__always) @_noLocks
    static func sanitized(_ v: SIMD16<Float>) -> SIMD16<Float> {
        typealias I = SIMD16<Int32>
        let bits = unsafeBitCast(v, to: I.self)
        let magnitude = bits & I(repeating: 0x7FFF_FFFF)
        let shifted = magnitude &+ I(repeating: sanitizeShift)
        let keep = shifted .<= I(repeating: sanitizeLimit)
        return unsafeBitCast(bits & I().replacing(with: I(repeating: -1), where: keep), to: SIMD16<Float>.self)
    }

    @inlinable @inline(__always) @_noLocks
    static func sanitized(_ s: Float) -> Float {
        let magnitude = s < 0 ? -s : s
        return magnitude >= 1e-30 && magnitude <= 1e30 ? s : 0
    }

    /// Int32.min − bits(10⁻³⁰), and Int32.min + bits(10³⁰) − bits(10⁻³⁰).
    @inlinable static var sanitizeShift: Int32 { Int32.min &- 0x0DA2_4260 }
    @inlinable static var sanitizeLimit: Int32 { Int32.min &+ (0x7149_F2CA &- 0x0DA2_4260) }

    /// The fader law and its exp2 on 8 positions at once; the same
    /// arithmetic as `FaderLaw.gain(position:)` and `FastMath.exp2`, lane by lane.
    @inlinable @inline(__always) @_noLocks
    static func faderGain(_ f: SIMD8<Float>) -> SIMD8<Float> {
        typealias V = SIMD8<Float>
        var db = V(repeating: 480) * f - V(repeating: 90)
        db.replace(with: V(repeating: 160) * f - V(repeating: 70), where: f .>= V(repeating: 0.0625))
        db.replace(with: V(repeating: 80) * f - V(repeating: 50), where: f .>= V(repeating: 0.25))
        db.replace(with: V(repeating: 40) * f - V(repeating: 30), where: f .>= V(repeating: 0.5))
        let gain = exp2(db * V(repeating: 0.166_096_4))
        return gain.replacing(with: V(), where: db .<= V(repeating: -90))
    }

    /// The slope of the fader law, dB per unit of position, at each position.
    @inlinable @inline(__always) @_noLocks
    static func decibelsPerPosition(_ f: SIMD8<Float>) -> SIMD8<Float> {
        typealias V = SIMD8<Float>
        var slope = V(repeating: 480)
        slope.replace(with: V(repeating: 160), where: f .>= V(repeating: 0.0625))
        slope.replace(with: V(repeating: 80), where: f .>= V(repeating: 0.25))
        slope.replace(with: V(repeating: 40), where: f .>= V(repeating: 0.5))
        return slope
    }

    /// 2^x on 8 lanes; see `FastMath.exp2`.
    @inlinable @inline(__always) @_noLocks
    static func exp2(_ x: SIMD8<Float>) -> SIMD8<Float> {
        typealias V = SIMD8<Float>
        typealias I = SIMD8<Int32>
        var clamped = x.replacing(with: V(repeating: -126), where: x .< V(repeating: -126))
        clamped.replace(with: V(repeating: 126), where: clamped .> V(repeating: 126))
        let magic = V(repeating: 12_582_912) // 1.5·2²³, as in FastMath
        let shifted = clamped + magic
        let whole = shifted - magic
        let t = (clamped - whole) * V(repeating: 0.693_147_18)
        var p = V(repeating: 1.0 / 5040)
        p = V(repeating: 1.0 / 720).addingProduct(p, t)
        p = V(repeating: 1.0 / 120).addingProduct(p, t)
        p = V(repeating: 1.0 / 24).addingProduct(p, t)
        p = V(repeating: 1.0 / 6).addingProduct(p, t)
        p = V(repeating: 0.5).addingProduct(p, t)
        p = V(repeating: 1).addingProduct(p, t)
        p = V(repeating: 1).addingProduct(p, t)
        let exponent = unsafeBitCast(shifted, to: I.self) &- I(repeating: 0x4B40_0000) &+ I(repeating: 127)
        return p * unsafeBitCast(exponent &<< 23, to: V.self)
    }
}
