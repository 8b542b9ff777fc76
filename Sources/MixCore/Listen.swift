/// The engineer's listen on the audio thread: a stereo pair made of the
/// sources, outputs and talkbacks selected for it, each at its share of
/// each side (`RampBlock.Role.listen`, `.listenMix`), times the listen's
/// own gain (docs/talkback.md). Its storage is made on the control side and
/// freed there; `render` is `@_noLocks`.
///
/// A share is a ramp of the kernel's, which the control side moves (a
/// selection, the mode, the default pair, a pair's link); the stage reads
/// each at the period's end and goes linearly from the last period's value
/// to it, sample by sample, so a change of what is listened to crossfades.
public struct Listen: ~Copyable {
    /// The lane of the listen's own gain among the master's listen lanes.
    @inlinable public static var levelLane: Int { 15 }

    /// Channels each side's shares are kept for: a rig that grows keeps them.
    public let capacity: Int
    /// Per side, per source and per output: the shares as the last period ended.
    @usableFromInline var lastSources: HeardSends
    @usableFromInline var lastOutputs: HeardSends
    /// Per talkback, and the listen's gain (lane `levelLane`): as the last period ended.
    @usableFromInline let lastMix: UnsafeMutablePointer<Float>
    /// The kernel's ramps for each side's sources and outputs, and the
    /// master's listen lanes; nil where the layout has none.
    @usableFromInline let sourceShares: UnsafeMutablePointer<UnsafePointer<Float>?>
    @usableFromInline let outputShares: UnsafeMutablePointer<UnsafePointer<Float>?>
    @usableFromInline let mix: UnsafePointer<Float>?
    /// The listen's two ports' buffers this period (nil: none), set by the
    /// mixer before each segment it renders.
    @usableFromInline let outs: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    /// Some share was not 0 as the last period ended: the stage adds.
    @usableFromInline var heard = false

    public init(capacity: Int, sources: [UnsafePointer<Float>?], outputs: [UnsafePointer<Float>?], mix: UnsafePointer<Float>?) {
        self.capacity = capacity
        lastSources = HeardSends(groups: 2, capacity: capacity)
        lastOutputs = HeardSends(groups: 2, capacity: capacity)
        lastMix = .allocate(capacity: 16)
        lastMix.initialize(repeating: 0, count: 16)
        sourceShares = .allocate(capacity: 2)
        outputShares = .allocate(capacity: 2)
        for side in 0..<2 {
            sourceShares[side] = side < sources.count ? sources[side] : nil
            outputShares[side] = side < outputs.count ? outputs[side] : nil
        }
        self.mix = mix
        outs = .allocate(capacity: 2)
        outs.initialize(repeating: nil, count: 2)
    }

    deinit {
        lastMix.deallocate()
        sourceShares.deallocate()
        outputShares.deallocate()
        outs.deallocate()
    }

    /// Audio thread: the listen's buffers for the frames about to be
    /// rendered, `offset` frames in (nil: no ports).
    @inlinable @_noLocks
    public mutating func use(_ buffers: UnsafePointer<UnsafeMutablePointer<Float>?>?, offset: Int) {
        for side in 0..<2 {
            if let buffers, let buffer = buffers[side] { outs[side] = buffer + offset } else { outs[side] = nil }
        }
    }

    /// Audio thread: silence on the listen's ports, `frames` long.
    @inlinable @_noLocks
    public func silence(frames: Int) {
        for side in 0..<2 {
            if let out = outs[side] { for k in 0..<frames { out[k] = 0 } }
        }
    }

    /// Audio thread: writes the listen, `frames` long, from the sources as
    /// the mix read them, the outputs as they leave and the talkbacks'
    /// inputs (nil: none). Silence when nothing is heard. Every share goes
    /// from the last period's value to this one's (`progress[k]`). `simd`:
    /// the kernel's SIMD path (`Sends`); `moved`: whether any share may
    /// have changed since the last period (`HeardSends.each`).
    @inlinable @_noLocks
    public mutating func render(sources: UnsafePointer<UnsafePointer<Float>>, count inputs: Int,
                                outputs: UnsafePointer<UnsafeMutablePointer<Float>>, count outputCount: Int,
                                talks: UnsafePointer<UnsafePointer<Float>?>, frames: Int, progress: UnsafePointer<Float>,
                                moved: Bool, simd: SIMDPath) {
        var anyHeard = false
        for side in 0..<2 {
            let out = outs[side]
            if let out { for k in 0..<frames { out[k] = 0 } }
            if let shares = sourceShares[side] {
                let heardNow = lastSources.each(side, now: shares, count: inputs, moved: moved) { n, start, end in
                    guard let out else { return }
                    Sends.add(simd, sources[n], into: out, from: start, to: end, progress: progress, frames: frames)
                }
                if heardNow { anyHeard = true }
            }
            if let shares = outputShares[side] {
                let heardNow = lastOutputs.each(side, now: shares, count: outputCount, moved: moved) { m, start, end in
                    guard let out else { return }
                    Sends.add(simd, outputs[m], into: out, from: start, to: end, progress: progress, frames: frames)
                }
                if heardNow { anyHeard = true }
            }
        }
        guard let mix else { heard = anyHeard; return }
        // The talkbacks sent to the listen (`Talkbacks.most` lanes): into both sides.
        for t in 0..<8 {
            let (start, end) = (lastMix[t], mix[t])
            if start == 0 && end == 0 { continue }
            lastMix[t] = end
            anyHeard = true
            guard let input = talks[t] else { continue }
            for side in 0..<2 {
                guard let out = outs[side] else { continue }
                Sends.add(simd, input, into: out, from: start, to: end, progress: progress, frames: frames)
            }
        }
        // The listen's own gain, last; every sample kept finite.
        let lane = Self.levelLane
        let (start, end) = (lastMix[lane], mix[lane])
        lastMix[lane] = end
        for side in 0..<2 {
            guard let out = outs[side] else { continue }
            Sends.gain(simd, out, from: start, to: end, progress: progress, frames: frames)
        }
        heard = anyHeard
    }

    /// Between two kernels (`RenderKernel.adopt`, wherever the swap runs):
    /// takes `other`'s shares as they were.
    @inlinable @_noLocks
    public mutating func exchange(with other: inout Listen) {
        guard other.capacity == capacity else { return }
        lastSources.exchange(with: &other.lastSources)
        lastOutputs.exchange(with: &other.lastOutputs)
        for i in 0..<16 { swap(&lastMix[i], &other.lastMix[i]) }
        swap(&heard, &other.heard)
    }

    /// Forgets the shares of the sources and outputs past the rig's size
    /// (gone with a rig that shrank): one that comes back starts from silence.
    @inlinable @_noLocks
    public mutating func clear(inputs: Int, outputs: Int) {
        lastSources.clear(from: inputs)
        lastOutputs.clear(from: outputs)
    }
}
