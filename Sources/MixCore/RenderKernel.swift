import Dynamics
import MixRows
import Shaping

/// The audio-thread side of the mixer: every parameter's ramp and the mixing
/// loop. All memory is allocated in `init`, on the control side, in one
/// allocation (`KernelArena`; the delay lines keep their own); everything
/// after that is `@_noLocks`, which the compiler checks: no allocation, no
/// locks, no C calls.
///
/// By stage: `+Period` runs one period; `+Changes` applies staged changes;
/// `+Ramps` advances the moving ramps; `+Fold` folds strip gains into
/// crosspoint gains; `+Mix` holds the mixing micro-kernels; `+Sanitize`
/// keeps non-finite samples off the outputs; then `DelayLines` and the
/// meters (`MeterBank`) run after the mix.
///
/// Per period: the ramps that are moving advance by the period's length, the
/// effective gain of every crosspoint whose path moved is recomputed, and each
/// output is the sum of its inputs, each weighted by a gain that goes linearly
/// from its value at the start of the period to its value at the end (a
/// per-sample ramp). docs/performance.md explains the layout and the loops.
///
/// Layout. The ramps are kept as structure-of-arrays (positions, values,
/// targets, steps, samples remaining), in blocks padded to 16 lanes so that a
/// ramp update is one `SIMD16` operation for 16 parameters: the catalogue's
/// blocks of every source, output and master, then the crosspoints
/// output-major (one padded row of inputs per output, the order the mixing
/// loop reads them in). `RampLayout` alone says where each block is. Only
/// chunks of 16 that hold a moving ramp are visited, through a list kept on
/// the fly.
///
/// Each output row keeps its effective gains at the start of the period and
/// their change per 16 frames of it, and a compact list of the inputs whose gain
/// is not zero. A row is recomputed only when one of the ramps on its paths
/// moved; the list is rebuilt only when the set of inputs in use changes.
public struct RenderKernel: ~Copyable {
    /// The build of the mixing loops this kernel runs (`SIMDPath`).
    public let simd: SIMDPath
    /// Frames mixed at a time: four 16-lane vectors held in registers.
    public static let block = 64
    public let inputs: Int
    public let outputs: Int
    public let maxFrames: Int
    public let panLaw: PanLaw

    // MARK: Ramps, structure-of-arrays

    /// Where each block of ramps lives (`RampLayout`), and its figures by
    /// name: stored, not computed, because the audio thread's code in the
    /// other `RenderKernel+…` files can read a stored property without a call.
    public let rampLayout: RampLayout
    @usableFromInline let inputStride: Int
    @usableFromInline let outputStride: Int
    @usableFromInline let outputBase: Int
    @usableFromInline let masterBase: Int
    @usableFromInline let crosspointBase: Int
    @usableFromInline let slots: Int
    /// `RampLayout.lanes` and `block`, likewise stored.
    @usableFromInline let lanes: Int
    @usableFromInline let framesPerBlock: Int
    /// First slots of the blocks the fold multiplies: source gains (before
    /// the pan), output gains and master gains; how many of each.
    @usableFromInline let gainBases: UnsafeMutablePointer<Int>
    @usableFromInline let sourceGains: Int
    /// The last this many of the source gain blocks are solo gates (`RampLayout.sourceGainBases`).
    @usableFromInline let sourceGates: Int
    @usableFromInline let outputGains: Int
    @usableFromInline let masterGains: Int
    /// First slot of the source pans, links, direct out taps and the output delays; −1: none.
    @usableFromInline let panBase: Int
    @usableFromInline let linkBase: Int
    @usableFromInline let directBase: Int
    @usableFromInline let delayBase: Int
    /// How many of the source gains (first in `gainBases`) a direct out
    /// hears at its `pre` tap (polarity) and at its `post` tap (and level, mute).
    @usableFromInline let directPreGains: Int
    @usableFromInline let directPostGains: Int
    /// Per chunk of 16 slots: its ramps are levels (fader law).
    @usableFromInline let levelChunk: UnsafeMutablePointer<Bool>

    @usableFromInline let position: UnsafeMutablePointer<Float>
    @usableFromInline let value: UnsafeMutablePointer<Float>
    @usableFromInline let targetPosition: UnsafeMutablePointer<Float>
    @usableFromInline let targetValue: UnsafeMutablePointer<Float>
    @usableFromInline let step: UnsafeMutablePointer<Float>
    @usableFromInline let remaining: UnsafeMutablePointer<Int32>
    /// Per level ramp: the samples remaining at or below which it may leave
    /// its segment of the fader law (or reach silence) with the next period,
    /// worked out in its last exact period: until then a period only
    /// multiplies its value by its ratio. A moving ramp's position is
    /// `RampArrays.livePosition`, not `position`.
    @usableFromInline let boundary: UnsafeMutablePointer<Int32>

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
    /// Per source: the product of its gains, and that times the pan gain for
    /// a left and a right output. Padded to `inputStride` with zeros.
    @usableFromInline let sourceMono: UnsafeMutablePointer<Float>
    /// Per source: what its meter reads it through (`/meters/source`): its
    /// gains but the solo gates, as a console meters a channel whatever
    /// else is soloed.
    @usableFromInline let sourceMeter: UnsafeMutablePointer<Float>
    @usableFromInline let sourceLeft: UnsafeMutablePointer<Float>
    @usableFromInline let sourceRight: UnsafeMutablePointer<Float>
    /// The arrays above and what they are folded from, as the SIMD paths
    /// are handed them (`foldSources`).
    @usableFromInline let sourceGainsFold: SourceGains
    /// Per output: its gains times the master's.
    @usableFromInline let outputGain: UnsafeMutablePointer<Float>
    /// Per source: its direct out's gain at the end of the last period, and
    /// the tap it was for (0: none).
    @usableFromInline let directEnd: UnsafeMutablePointer<Float>
    @usableFromInline let directTap: UnsafeMutablePointer<Int32>

    /// Effective gain of each crosspoint at the start of the period, and its
    /// change per 16 frames of the period (`MixRows.gainDelta`); [output ·
    /// inputStride + input].
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
    /// (k + 1)/16, for the mixing loops (`MixRows.sixteenths`), and 16/frames
    /// for the last period folded: a gain's change per 16 frames of it.
    @usableFromInline let sixteenths: UnsafeMutablePointer<Float>
    @usableFromInline var riseScale: Float = 0.25

    /// The arrays above that the SIMD paths use, as they are handed them.
    @usableFromInline let rows: MixRows
    @usableFromInline let ramps: RampArrays
    /// Per entry of `movingChunks`: 1 if a ramp of it still moves after the
    /// SIMD path's step, 0 if all landed.
    @usableFromInline let rampOutcome: UnsafeMutablePointer<Int8>
    /// Per chunk of crosspoints: its output row.
    @usableFromInline let chunkRow: UnsafeMutablePointer<Int32>

    /// The one allocation every array above lives in.
    let arena: KernelArena

    // MARK: Stages before and after the mix

    /// The outputs' delay lines.
    public var delays: DelayLines
    /// The sources' EQ, before the mix, and the outputs', after it
    /// (`RenderKernel+EQ`); whether the layout has either; per value of
    /// each, the kernel's values of it (`Equalisers.index`); per chunk of
    /// ramps, whether it holds an EQ value (`stageChunks`).
    public var sourceEQ: Equalisers
    public var outputEQ: Equalisers
    @usableFromInline let hasSourceEQ: Bool
    @usableFromInline let hasOutputEQ: Bool
    @usableFromInline let sourceEQValues: UnsafeMutablePointer<UnsafePointer<Float>>
    @usableFromInline let outputEQValues: UnsafeMutablePointer<UnsafePointer<Float>>
    @usableFromInline let stageChunk: UnsafeMutablePointer<UInt8>
    /// The stages whose settings changed since each last ran, a bit each
    /// (`stageChunks`: 4 the sources' EQ, 8 the outputs', 16 the limiters,
    /// 32 the talkbacks):
    /// a stage with its bit clear and nothing running does nothing at all.
    @usableFromInline var stagesAwake: UInt8
    /// Where the sources' EQ writes, and what the mix reads.
    @usableFromInline let shaped: ShapedSources
    /// The outputs' limiters, last (`RenderKernel+Limiters`); whether the
    /// layout has them; their values (on, ceiling, release, lookahead), a
    /// block each; per output, non-zero for a member of a stereo pair.
    public var limiters: Limiters
    @usableFromInline let hasLimiters: Bool
    @usableFromInline let limiterValues: UnsafeMutablePointer<UnsafePointer<Float>>
    @usableFromInline let pairedOutputs: UnsafeMutablePointer<Int32>
    /// The limiters' lowest gain per output over the last period (`Limiters.lowest`).
    @usableFromInline let limiterLowest: UnsafeMutablePointer<Float>
    /// The talkbacks' inputs, added into the outputs they talk to after the
    /// mix (`RenderKernel+Talk`); whether the layout has any sends.
    public var talkbacks: Talkbacks
    @usableFromInline let hasTalkbacks: Bool
    /// The engineer's listen, after the limiters (`RenderKernel+Listen`);
    /// whether the layout has its shares; the sources as the mix last read
    /// them (shaped by their EQ or not), for its PFL.
    public var listen: Listen
    @usableFromInline let hasListen: Bool
    @usableFromInline var mixInput: UnsafePointer<UnsafePointer<Float>>?
    /// The rate the EQ's coefficients are made for: set by the mixer each period.
    public var sampleRate: Float = 48_000
    /// The most channels of a kind a rig may have: the EQ stages hold this
    /// many, so that a rig that grows keeps its filters (`adopt`).
    public static let channelCapacity = 512

    /// A kernel for the ramps `ramps` lays out, starting settled at the
    /// values `initial` gives (changes by slot; their times are ignored).
    /// `longestDelay`: the delay lines' length in seconds; `delayLines`: how
    /// many (the outputs when nil; none for a kernel that will take over
    /// another's, `adopt`). `simd`: the build of the mixing loops to run,
    /// one this CPU has (`SIMDPath.available`).
    public init(ramps rampLayout: RampLayout, initial: [Change], maxFrames: Int = 8192, panLaw: PanLaw,
                layout: OutputLayout, longestDelay: Double = 0, delayLines: Int? = nil, simd: SIMDPath = .inUse) {
        precondition(SIMDPath.available.contains(simd), "the \(simd) path on a CPU that runs \(SIMDPath.available)")
        self.simd = simd
        let inputs = rampLayout.inputs, outputs = rampLayout.outputs
        precondition(layout.sides.count == outputs)
        self.inputs = inputs
        self.outputs = outputs
        self.maxFrames = maxFrames
        self.panLaw = panLaw
        self.rampLayout = rampLayout
        let inputStride = rampLayout.inputStride, outputStride = rampLayout.outputStride, slots = rampLayout.slots
        let lanes = RampLayout.lanes
        self.inputStride = inputStride
        self.outputStride = outputStride
        outputBase = rampLayout.outputBase
        masterBase = rampLayout.masterBase
        crosspointBase = rampLayout.crosspointBase
        self.slots = slots
        self.lanes = lanes
        framesPerBlock = Self.block
        let gains = [rampLayout.sourceGainBases, rampLayout.bases(.output, .gain), rampLayout.bases(.master, .gain)]
        (sourceGains, outputGains, masterGains) = (gains[0].count, gains[1].count, gains[2].count)
        sourceGates = rampLayout.bases(.source, .gate).count
        directPreGains = rampLayout.bases(.source, .polarity).count
        directPostGains = directPreGains + rampLayout.bases(.source, .gain).count
        panBase = rampLayout.bases(.source, .pan).first ?? -1
        linkBase = rampLayout.bases(.source, .link).first ?? -1
        directBase = rampLayout.bases(.source, .direct).first ?? -1
        delayBase = rampLayout.bases(.output, .delay).first ?? -1
        delays = DelayLines(outputs: delayLines ?? outputs, longest: delayLines == 0 ? 0 : longestDelay)

        let sourceEQ = Self.eqBlocks(rampLayout, .source), outputEQ = Self.eqBlocks(rampLayout, .output)
        let arena = KernelArena(ramps: rampLayout, maxFrames: maxFrames, sourceEQValues: sourceEQ?.bases.count ?? 0,
                                outputEQValues: outputEQ?.bases.count ?? 0)
        (position, value, targetPosition, targetValue) =
            (arena.array(arena.position), arena.array(arena.value),
             arena.array(arena.targetPosition), arena.array(arena.targetValue))
        (step, ratio, remaining) = (arena.array(arena.step), arena.array(arena.ratio), arena.array(arena.remaining))
        (movingChunks, periodsToResync, chunkListed) =
            (arena.array(arena.movingChunks), arena.array(arena.periodsToResync), arena.array(arena.chunkListed))
        levelChunk = arena.array(arena.levelChunk)
        levelChunk.update(from: rampLayout.levelChunks, count: slots / lanes)
        gainBases = arena.array(arena.gainBases)
        gainBases.update(from: Array(gains.joined()), count: gains.joined().count)
        (sourceMono, sourceLeft, sourceRight, outputGain) =
            (arena.array(arena.sourceMono), arena.array(arena.sourceLeft),
             arena.array(arena.sourceRight), arena.array(arena.outputGain))
        sourceMeter = arena.array(arena.sourceMeter)
        sourceGainsFold = SourceGains(value: value, gainBases: gainBases, blocks: sourceGains,
                                      heard: sourceGains - sourceGates, panBase: panBase, linkBase: linkBase,
                                      panLaw: panLaw, mono: sourceMono, meter: sourceMeter, left: sourceLeft,
                                      right: sourceRight)
        (directEnd, directTap) = (arena.array(arena.directEnd), arena.array(arena.directTap))
        (gainStart, gainDelta, gainEnd, inUse) =
            (arena.array(arena.gainStart), arena.array(arena.gainDelta), arena.array(arena.gainEnd), arena.array(arena.inUse))
        (activeInputs, activeCount, compactStart, compactDelta) =
            (arena.array(arena.activeInputs), arena.array(arena.activeCount),
             arena.array(arena.compactStart), arena.array(arena.compactDelta))
        (gathered, gatheredValid, lastInputs) =
            (arena.array(arena.gathered), arena.array(arena.gatheredValid), arena.array(arena.lastInputs))
        (rowRamping, rowDirty, sourceChunkDirty) =
            (arena.array(arena.rowRamping), arena.array(arena.rowDirty), arena.array(arena.sourceChunkDirty))
        sides = arena.array(arena.sides)
        sides.update(from: layout.sides, count: outputs)
        (progress, sixteenths) = (arena.array(arena.progress), arena.array(arena.sixteenths))
        for k in 0..<maxFrames { sixteenths[k] = Float(k + 1) * 0.0625 }
        rows = MixRows(inputs: inputs, outputs: outputs, inputStride: inputStride, gainStart: gainStart, gainDelta: gainDelta,
                       gainEnd: gainEnd, inUse: inUse,
                       activeInputs: activeInputs, activeCount: activeCount, compactStart: compactStart,
                       compactDelta: compactDelta, gathered: gathered, gatheredValid: gatheredValid,
                       rowRamping: rowRamping, sixteenths: sixteenths)
        boundary = arena.array(arena.boundary)
        ramps = RampArrays(position: position, value: value, targetPosition: targetPosition, targetValue: targetValue,
                           step: step, ratio: ratio, remaining: remaining, boundary: boundary)
        rampOutcome = arena.array(arena.rampOutcome)
        chunkRow = arena.array(arena.chunkRow)
        for chunk in (crosspointBase / lanes)..<(slots / lanes) {
            chunkRow[chunk] = Int32(truncatingIfNeeded: (chunk * lanes - crosspointBase) / inputStride)
        }
        (hasSourceEQ, hasOutputEQ) = (sourceEQ != nil, outputEQ != nil)
        self.sourceEQ = Equalisers(channels: max(Self.channelCapacity, inputs), bands: sourceEQ?.bands ?? 0,
                                   highCut: sourceEQ?.highCut ?? false, maxFrames: sourceEQ == nil ? 1 : maxFrames,
                                   cleansing: true)
        self.outputEQ = Equalisers(channels: max(Self.channelCapacity, outputs), bands: outputEQ?.bands ?? 0,
                                   highCut: outputEQ?.highCut ?? false, maxFrames: outputEQ == nil ? 1 : maxFrames)
        (sourceEQValues, outputEQValues) = (arena.array(arena.sourceEQValues), arena.array(arena.outputEQValues))
        let zeros = UnsafePointer(arena.array(arena.eqZeros))
        for (p, base) in (sourceEQ?.bases ?? []).enumerated() { sourceEQValues[p] = base >= 0 ? UnsafePointer(value + base) : zeros }
        for (p, base) in (outputEQ?.bases ?? []).enumerated() { outputEQValues[p] = base >= 0 ? UnsafePointer(value + base) : zeros }
        stageChunk = arena.array(arena.stageChunk)
        stageChunk.update(from: Self.stageChunks(rampLayout), count: slots / lanes)
        stagesAwake = Self.everyStage
        shaped = ShapedSources(inputs: sourceEQ == nil ? 0 : inputs, maxFrames: maxFrames)
        let limiterBases = [RampBlock.LimiterField.on, .ceiling, .release, .lookahead]
            .map { Self.outputBase(rampLayout, .limiter($0)) ?? -1 }
        hasLimiters = limiterBases.contains { $0 >= 0 }
        limiters = Limiters(outputs: hasLimiters ? outputs : 0, maxFrames: hasLimiters ? maxFrames : 1)
        limiterLowest = limiters.lowest
        limiterValues = arena.array(arena.limiterValues)
        for (p, base) in limiterBases.enumerated() { limiterValues[p] = base >= 0 ? UnsafePointer(value + base) : zeros }
        let values = value
        let sends = (1...Talkbacks.most).map { t in rampLayout.bases(.output, .talk(t)).first.map { UnsafePointer(values + $0) } }
        hasTalkbacks = sends.contains { $0 != nil }
        talkbacks = Talkbacks(capacity: hasTalkbacks ? max(Self.channelCapacity, outputs) : 0, sends: sends)
        let shares = { (strip: RampBlock.Strip) in
            (0..<2).map { side in rampLayout.bases(strip, .listen(side: side)).first.map { UnsafePointer(values + $0) } }
        }
        let listenMix = rampLayout.bases(.master, .listenMix).first.map { UnsafePointer(values + $0) }
        hasListen = listenMix != nil
        listen = Listen(capacity: hasListen ? max(Self.channelCapacity, inputs, outputs) : 0, sources: shares(.source),
                        outputs: shares(.output), mix: listenMix)
        pairedOutputs = arena.array(arena.pairedOutputs)
        for m in 0..<outputs { pairedOutputs[m] = layout.sides[m] == .mono ? 0 : -1 }
        self.arena = arena

        for change in initial {
            let i = Int(change.ramp)
            guard i >= 0 && i < slots else { continue }
            if isDelay(slot: i) {
                delays.retarget(output: i - delayBase, seconds: change.value, fade: 0)
                continue
            }
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

    /// The value a parameter has reached (for tests and diagnostics).
    public func value(ofRamp slot: Int) -> Float { value[slot] }

    /// Crosspoints in use on each output, for diagnostics and tests.
    public func inputsInUse(output m: Int) -> [Int] {
        (0..<activeCount[m]).map { Int(activeInputs[m * inputs + $0]) }
    }

    /// Whether any ramp is still moving or any gain still changing.
    public var isSettled: Bool { movingCount == 0 && rampingRows == 0 && !anyRowDirty && !allRowsDirty }
}
