import MixRows

/// The talkbacks on the audio thread: each talkback's input added into the
/// outputs it talks to, at each output's send (`RampBlock.Role.talk`),
/// after the output's level and mute and before its EQ, delay and limiter
/// (docs/talkback.md). Its storage is made on the control side and freed
/// there; `add` is `@_noLocks`.
///
/// A send is a ramp of the kernel's, which the control side moves (talk on
/// and off, the talkback's level, its destinations): the stage reads each
/// send at the period's end and goes linearly from the last period's value
/// to it, sample by sample, as the mix's gains do, so talk on and off
/// never click. A send that was 0 and is 0 costs a comparison.
public struct Talkbacks: ~Copyable {
    /// The most talkbacks a rig may have (`serve --talkbacks`).
    @inlinable public static var most: Int { 8 }

    /// Outputs each talkback's sends are kept for: a rig that grows keeps them.
    public let capacity: Int
    /// Per talkback, per output: the sends as the last period ended.
    @usableFromInline var last: HeardSends
    /// Per talkback: its sends in the kernel's ramps (`value + base`), or nil
    /// where the layout has none.
    @usableFromInline let sends: UnsafeMutablePointer<UnsafePointer<Float>?>
    /// Per talkback: its input this period (nil: none), set by the mixer
    /// before each segment it renders.
    @usableFromInline let inputs: UnsafeMutablePointer<UnsafePointer<Float>?>
    /// Some send was not 0 as the last period ended: the stage runs.
    @usableFromInline var heard = false

    /// A stage for at most `capacity` outputs, its sends read from `sends`
    /// (one per talkback, nil for none; at most `most`).
    public init(capacity: Int, sends: [UnsafePointer<Float>?]) {
        self.capacity = capacity
        last = HeardSends(groups: Self.most, capacity: capacity)
        self.sends = .allocate(capacity: Self.most)
        self.sends.initialize(repeating: nil, count: Self.most)
        for (t, send) in sends.prefix(Self.most).enumerated() { self.sends[t] = send }
        inputs = .allocate(capacity: Self.most)
        inputs.initialize(repeating: nil, count: Self.most)
    }

    deinit {
        sends.deallocate()
        inputs.deallocate()
    }

    /// Audio thread: the talkbacks' inputs for the frames about to be
    /// rendered, `offset` frames into each buffer (nil: none at all).
    @inlinable @_noLocks
    public mutating func use(_ buffers: UnsafePointer<UnsafePointer<Float>?>?, count: Int, offset: Int) {
        for t in 0..<Self.most {
            if let buffers, t < count, let buffer = buffers[t] { inputs[t] = buffer + offset } else { inputs[t] = nil }
        }
    }

    /// Audio thread: adds each talkback's input into the outputs it is sent
    /// to, `frames` long, each send going from the last period's value to
    /// this one's (`progress[k]`: how far through the period sample k is).
    /// What is added is kept finite: a talkback's input that is not is 0.
    /// `moved`: whether any send may have changed since the last period
    /// (`HeardSends.each`); `simd`: the kernel's SIMD path (`Sends`).
    @inlinable @_noLocks
    public mutating func add(into output: UnsafePointer<UnsafeMutablePointer<Float>>, outputs: Int, frames: Int,
                             progress: UnsafePointer<Float>, moved: Bool, simd: SIMDPath) {
        var anyHeard = false
        for t in 0..<Self.most {
            guard let send = sends[t] else { continue }
            let input = inputs[t]
            let heardNow = last.each(t, now: send, count: outputs, moved: moved) { m, start, end in
                guard let input else { return }
                Sends.add(simd, input, into: output[m], from: start, to: end, progress: progress, frames: frames)
            }
            if heardNow { anyHeard = true }
        }
        heard = anyHeard
    }

    /// Between two kernels (`RenderKernel.adopt`, wherever the swap runs):
    /// takes `other`'s sends as they were, so a rig that grows carries on
    /// talking.
    @inlinable @_noLocks
    public mutating func exchange(with other: inout Talkbacks) {
        guard other.capacity == capacity else { return }
        last.exchange(with: &other.last)
        swap(&heard, &other.heard)
    }

    /// Forgets the sends of the outputs from `outputs` on (gone with a rig
    /// that shrank): one that comes back starts from silence.
    @inlinable @_noLocks
    public mutating func clear(from outputs: Int) {
        last.clear(from: outputs)
    }
}
