/// The audio-thread side of the mixer: every parameter's ramp and the mixing
/// loop. All memory is allocated in `init`, on the control side; everything
/// after that is `@_noLocks`, which the compiler checks: no allocation, no
/// locks, no C calls.
///
/// Per period: the ramps advance by the period's length, the effective gain of
/// every crosspoint is recomputed if anything moved, and each output is the sum
/// of its inputs, each weighted by a gain that goes linearly from its value at
/// the start of the period to its value at the end (a per-sample ramp).
public struct RenderKernel: ~Copyable {
    /// Frames mixed at a time: four 16-lane vectors held in registers.
    public static let block = 64

    public let inputs: Int
    public let outputs: Int
    public let maxFrames: Int
    public let panLaw: PanLaw
    public let parameters: ParameterIndex

    @usableFromInline let ramps: UnsafeMutablePointer<Ramp>
    /// Which side of a stereo pair each output is.
    @usableFromInline let sides: UnsafeMutablePointer<OutputLayout.Side>
    /// Effective gain of each crosspoint at the start and end of the period,
    /// output-major: [output · inputs + input], 0-based.
    @usableFromInline var gainsStart: UnsafeMutablePointer<Float>
    @usableFromInline var gainsEnd: UnsafeMutablePointer<Float>
    /// Per-output gain after the matrix (output volume · mute · master), scratch.
    @usableFromInline let outputGains: UnsafeMutablePointer<Float>
    /// (k + 1) / frames: how far through the period sample k is.
    @usableFromInline let progress: UnsafeMutablePointer<Float>
    @usableFromInline var progressFrames = 0
    /// Each input's block multiplied by `progress`, when gains are ramping.
    @usableFromInline let weighted: UnsafeMutablePointer<Float>
    /// Some ramp has not reached its target.
    @usableFromInline var moving = false
    /// The effective gains must be recomputed before the next render.
    @usableFromInline var dirty = true
    /// gainsStart differs from gainsEnd in the current period.
    @usableFromInline var gainsRamping = false

    public init(inputs: Int, outputs: Int, maxFrames: Int = 8192, panLaw: PanLaw,
                layout: OutputLayout, scene: Scene) {
        precondition(scene.inputCount == inputs && scene.outputCount == outputs)
        precondition(layout.sides.count == outputs)
        self.inputs = inputs
        self.outputs = outputs
        self.maxFrames = maxFrames
        self.panLaw = panLaw
        parameters = ParameterIndex(inputs: inputs, outputs: outputs)
        ramps = .allocate(capacity: parameters.count)
        for change in Self.changes(toReach: scene, parameters: parameters, seconds: 0) {
            let index = Int(change.ramp)
            (ramps + index).initialize(to: Ramp(shape: parameters.shape(of: index),
                                                position: change.position, value: change.value))
        }
        sides = .allocate(capacity: max(1, outputs))
        sides.initialize(from: layout.sides, count: outputs)
        gainsStart = .allocate(capacity: max(1, inputs * outputs))
        gainsEnd = .allocate(capacity: max(1, inputs * outputs))
        gainsStart.initialize(repeating: 0, count: max(1, inputs * outputs))
        gainsEnd.initialize(repeating: 0, count: max(1, inputs * outputs))
        outputGains = .allocate(capacity: max(1, outputs))
        outputGains.initialize(repeating: 0, count: max(1, outputs))
        progress = .allocate(capacity: maxFrames)
        progress.initialize(repeating: 0, count: maxFrames)
        weighted = .allocate(capacity: max(1, inputs) * Self.block)
        weighted.initialize(repeating: 0, count: max(1, inputs) * Self.block)
        computeGains()
        copyEndToStart()
        dirty = false
    }

    deinit {
        ramps.deallocate()
        sides.deallocate()
        gainsStart.deallocate()
        gainsEnd.deallocate()
        outputGains.deallocate()
        progress.deallocate()
        weighted.deallocate()
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
    public func value(ofRamp index: Int) -> Float { ramps[index].value }
    public func ramp(_ index: Int) -> Ramp { ramps[index] }

    // MARK: - Audio thread

    /// Starts the ramp a change names. Changes naming no parameter are ignored.
    @inlinable @_noLocks
    public mutating func apply(_ change: Change, sampleRate: Int) {
        let index = Int(change.ramp)
        guard index >= 0 && index < parameters.count else { return }
        let seconds = min(max(change.seconds, 0), 3600)
        let samples = Int(seconds * Float(sampleRate))
        ramps[index].start(toPosition: change.position, value: change.value, samples: samples)
        moving = true
        dirty = true
    }

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
        var start = 0
        while start < frames {
            let length = min(Self.block, frames - start)
            if gainsRamping { weighInputs(input, start: start, length: length) }
            for m in 0..<outputs {
                if length == Self.block {
                    mixBlock(output: m, input, into: output[m] + start, start: start)
                } else {
                    mixTail(output: m, input, into: output[m] + start, start: start, length: length)
                }
            }
            start += length
        }
    }

    /// Moves every ramp on by one period and, if anything changed, makes the
    /// end-of-period gains new and the old end the new start.
    @inlinable @_noLocks
    mutating func advance(frames: Int) {
        if moving {
            var stillMoving = false
            for i in 0..<parameters.count {
                if ramps[i].advance(frames: frames) { dirty = true }
                if ramps[i].remaining > 0 { stillMoving = true }
            }
            moving = stillMoving
        }
        if dirty {
            swap(&gainsStart, &gainsEnd)
            computeGains()
            gainsRamping = true
            dirty = false
        } else if gainsRamping {
            copyEndToStart()
            gainsRamping = false
        }
    }

    /// Folds every gain on the way from input to output into one number per
    /// crosspoint: source volume · mute · solo gate · crosspoint · pan · output
    /// volume · mute · master volume · mute.
    @inlinable @_noLocks
    mutating func computeGains() {
        let p = parameters
        let master = ramps[p.masterVolume].value * ramps[p.masterMute].value
        let outputVolumes = ramps + p.outputVolumes, outputMutes = ramps + p.outputMutes
        for m in 0..<outputs {
            outputGains[m] = outputVolumes[m].value * outputMutes[m].value * master
        }
        let volumes = ramps + p.sourceVolumes, mutes = ramps + p.sourceMutes
        let solos = ramps + p.sourceSolos, pans = ramps + p.sourcePans
        for n in 0..<inputs {
            let source = volumes[n].value * mutes[n].value * solos[n].value
            let pan = panLaw.gains(pan: pans[n].value)
            let row = ramps + p.crosspoints + n * outputs
            for m in 0..<outputs {
                let side: Float
                switch sides[m] {
                case .mono: side = 1
                case .left: side = pan.left
                case .right: side = pan.right
                }
                var gain = source * row[m].value * side * outputGains[m]
                // No denormals and nothing non-finite ever reaches the mix.
                if !(gain >= 1e-20 && gain <= 1e6) { gain = 0 }
                gainsEnd[m * inputs + n] = gain
            }
        }
    }

    @inlinable @_noLocks
    mutating func copyEndToStart() {
        for i in 0..<(inputs * outputs) { gainsStart[i] = gainsEnd[i] }
    }

    /// weighted[n][k] = x_n[start + k] · progress[start + k], so that a gain
    /// going from g0 to g1 over the period contributes g0·x + (g1 − g0)·weighted.
    @inlinable @_noLocks
    func weighInputs(_ input: UnsafePointer<UnsafePointer<Float>>, start: Int, length: Int) {
        for n in 0..<inputs {
            let x = input[n] + start
            let w = weighted + n * Self.block
            for k in 0..<length { w[k] = x[k] * progress[start + k] }
        }
    }

    /// One output, 64 frames, in four 16-lane accumulators kept in registers
    /// across all inputs; a crosspoint silent for the whole period costs a test.
    @inlinable @_noLocks
    func mixBlock(output m: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                  into out: UnsafeMutablePointer<Float>, start: Int) {
        typealias V = SIMD16<Float>
        var a0 = V(), a1 = V(), a2 = V(), a3 = V()
        let ends = gainsEnd + m * inputs
        let starts = gainsStart + m * inputs
        let ramping = gainsRamping
        for n in 0..<inputs {
            let g1 = ends[n]
            let g0 = ramping ? starts[n] : g1
            if g0 == 0 && g1 == 0 { continue }
            let x = UnsafeRawPointer(input[n] + start)
            let x0 = x.loadUnaligned(as: V.self)
            let x1 = x.loadUnaligned(fromByteOffset: 64, as: V.self)
            let x2 = x.loadUnaligned(fromByteOffset: 128, as: V.self)
            let x3 = x.loadUnaligned(fromByteOffset: 192, as: V.self)
            a0 = a0.addingProduct(x0, V(repeating: g0))
            a1 = a1.addingProduct(x1, V(repeating: g0))
            a2 = a2.addingProduct(x2, V(repeating: g0))
            a3 = a3.addingProduct(x3, V(repeating: g0))
            if g0 != g1 {
                let d = V(repeating: g1 - g0)
                let w = UnsafeRawPointer(weighted + n * Self.block)
                a0 = a0.addingProduct(w.loadUnaligned(as: V.self), d)
                a1 = a1.addingProduct(w.loadUnaligned(fromByteOffset: 64, as: V.self), d)
                a2 = a2.addingProduct(w.loadUnaligned(fromByteOffset: 128, as: V.self), d)
                a3 = a3.addingProduct(w.loadUnaligned(fromByteOffset: 192, as: V.self), d)
            }
        }
        let o = UnsafeMutableRawPointer(out)
        o.storeBytes(of: Self.sanitized(a0), as: V.self)
        o.storeBytes(of: Self.sanitized(a1), toByteOffset: 64, as: V.self)
        o.storeBytes(of: Self.sanitized(a2), toByteOffset: 128, as: V.self)
        o.storeBytes(of: Self.sanitized(a3), toByteOffset: 192, as: V.self)
    }

    /// A block shorter than 64 frames (periods under 64), sample by sample.
    @inlinable @_noLocks
    func mixTail(output m: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                 into out: UnsafeMutablePointer<Float>, start: Int, length: Int) {
        for k in 0..<length { out[k] = 0 }
        let ramping = gainsRamping
        for n in 0..<inputs {
            let g1 = gainsEnd[m * inputs + n]
            let g0 = ramping ? gainsStart[m * inputs + n] : g1
            if g0 == 0 && g1 == 0 { continue }
            let x = input[n] + start
            let w = weighted + n * Self.block
            let d = g1 - g0
            if d == 0 {
                for k in 0..<length { out[k] += g0 * x[k] }
            } else {
                for k in 0..<length { out[k] += g0 * x[k] + d * w[k] }
            }
        }
        for k in 0..<length {
            let s = out[k]
            let magnitude = s < 0 ? -s : s
            if !(magnitude >= 1e-30 && magnitude <= 1e30) { out[k] = 0 }
        }
    }

    /// Zero for anything that is not a finite, normal-sized sample: NaN and
    /// infinities (which fail both comparisons or the second) and denormals.
    @inlinable @_noLocks
    static func sanitized(_ v: SIMD16<Float>) -> SIMD16<Float> {
        let magnitude = v.replacing(with: -v, where: v .< 0)
        let keep = (magnitude .>= 1e-30) .& (magnitude .<= 1e30)
        return SIMD16<Float>(repeating: 0).replacing(with: v, where: keep)
    }
}
