/// One delay line per output, for aligning speakers: allocated when the
/// mixer is made, run on the audio thread after the mix.
///
/// A change of delay never clicks and never glides in pitch: the line
/// crossfades from the old tap to the new one over the change's time (at
/// least 64 samples), the way a console's delay does. A change that comes
/// during a crossfade waits for it to end. An output whose delay is 0 costs
/// nothing: its line is written only while its delay is not 0 or a fade is
/// under way. When a delay rises from 0 the line starts empty, so the output
/// fades out, and the delayed signal fades in once it has travelled the line
/// (what is written first is faded in over the change's time): a raise from
/// 0 leaves a gap as long as the new delay, never a repeat of stale audio.
public struct DelayLines: ~Copyable {
    /// Samples each line holds: a power of two, for masking.
    public private(set) var capacity: Int
    @usableFromInline private(set) var mask: Int
    /// Lines: one for each output the rig may ever have, so that a rig that
    /// grows keeps its lines where they are (`RenderKernel.adopt`).
    @usableFromInline private(set) var outputs: Int
    /// outputs × capacity samples, written only while a line is active
    /// (untouched pages of an unused line cost no memory).
    @usableFromInline private(set) var samples: UnsafeMutablePointer<Float>
    @usableFromInline private(set) var lines: UnsafeMutablePointer<Line>
    /// Lines active or asked to become so.
    @usableFromInline var busy = 0

    /// The rate the capacity is sized for: a longer delay is cut to what
    /// the line holds at higher rates.
    public static let sizingRate: Double = 96_000

    @usableFromInline
    struct Line {
        @inlinable init() {}
        /// Where the next sample is written.
        @usableFromInline var write = 0
        /// The tap heard now, in samples; `target` is being faded to while it differs.
        @usableFromInline var tap = 0
        @usableFromInline var target = 0
        /// Crossfade progress from `tap` to `target`, 0…1, and its step per sample.
        @usableFromInline var mix: Float = 0
        @usableFromInline var mixStep: Float = 0
        /// The latest delay asked for and the time of its crossfade, in
        /// seconds; and in samples at the rate of the last period.
        @usableFromInline var seconds: Float = 0
        @usableFromInline var fadeSeconds: Float = 0
        @usableFromInline var wanted = 0
        @usableFromInline var wantedFade = 64
        /// Samples behind `write` that hold this activation's audio (or silence).
        @usableFromInline var written = 0
        /// Samples of the fade-in of what is written after activation.
        @usableFromInline var fadeInLeft = 0
        @usableFromInline var fadeInLength = 1
        @usableFromInline var active = false
    }

    /// Lines for `outputs` outputs, each holding at least `longest` seconds at `sizingRate`.
    public init(outputs: Int, longest: Double) {
        var capacity = 1
        while capacity < Int((max(0, longest) * Self.sizingRate).rounded(.up)) + 1 { capacity *= 2 }
        self.capacity = capacity
        mask = capacity - 1
        self.outputs = outputs
        samples = .allocate(capacity: max(1, outputs * capacity))
        lines = .allocate(capacity: max(1, outputs))
        lines.initialize(repeating: Line(), count: max(1, outputs))
    }

    deinit {
        samples.deallocate()
        lines.deallocate()
    }

    /// The tap output `m` (0-based) is heard through now, in samples (for tests).
    public func tap(output m: Int) -> Int { lines[m].tap }

    /// Asks output `m` (0-based) for a delay of `seconds`, reached by a
    /// crossfade of `fade` seconds (at least 64 samples).
    @inlinable @_noLocks
    public mutating func retarget(output m: Int, seconds: Float, fade: Float) {
        guard m >= 0 && m < outputs else { return }
        lines[m].seconds = seconds.isFinite ? min(max(seconds, 0), 3600) : 0
        lines[m].fadeSeconds = fade.isFinite ? min(max(fade, 0), 3600) : 0
        if !lines[m].active && lines[m].seconds > 0 {
            busy += 1
            lines[m].active = true
            lines[m].written = 0
            lines[m].fadeInLeft = -1 // set from the fade time at the next period
        }
    }

    /// Delays the first `count` outputs' `frames` samples in place.
    @inlinable @_noLocks
    public mutating func process(_ output: UnsafePointer<UnsafeMutablePointer<Float>>, count: Int, frames: Int,
                                 sampleRate: Int) {
        guard busy > 0 else { return }
        for m in 0..<min(count, outputs) where lines[m].active {
            run(m, output[m], frames: frames, rate: Float(sampleRate))
        }
    }

    /// Trades lines with `other` (a kernel taking over from another keeps
    /// the lines, and what they hold, of the one it replaces).
    @usableFromInline @_noLocks
    mutating func exchange(with other: inout DelayLines) {
        (capacity, other.capacity) = (other.capacity, capacity)
        (mask, other.mask) = (other.mask, mask)
        (outputs, other.outputs) = (other.outputs, outputs)
        (samples, other.samples) = (other.samples, samples)
        (lines, other.lines) = (other.lines, lines)
        (busy, other.busy) = (other.busy, busy)
    }

    /// Lines `first..<end` back to no delay at once, as an output removed
    /// leaves them: one added there later starts with none.
    @inlinable @_noLocks
    public mutating func clear(from first: Int, to end: Int) {
        guard first < end else { return }
        for m in max(0, first)..<min(end, outputs) {
            if lines[m].active { busy -= 1 }
            lines[m] = Line()
        }
    }

    @inlinable @_noLocks
    mutating func run(_ m: Int, _ buffer: UnsafeMutablePointer<Float>, frames: Int, rate: Float) {
        var line = lines[m]
        let ring = samples + m * capacity
        line.wanted = min(Int(line.seconds * rate + 0.5), mask)
        line.wantedFade = max(Int(line.fadeSeconds * rate + 0.5), 64) // the shortest crossfade
        if line.fadeInLeft < 0 {
            line.fadeInLength = line.wantedFade
            line.fadeInLeft = line.wantedFade
        }
        if line.target == line.tap && line.wanted != line.tap {
            // Ages the new tap will read that this activation has not written: silence.
            if line.wanted > line.written {
                for age in (line.written + 1)...line.wanted { ring[(line.write - age) & mask] = 0 }
                line.written = line.wanted
            }
            line.target = line.wanted
            line.mix = 0
            line.mixStep = 1 / Float(line.wantedFade)
        }
        for k in 0..<frames {
            // The fade-in is for what the line will play later; a tap of 0
            // is the mix as it is now (the output fading out while the
            // delay rises from 0 hears it whole).
            let x = buffer[k]
            var written = x
            if line.fadeInLeft > 0 {
                written *= Float(line.fadeInLength - line.fadeInLeft) / Float(line.fadeInLength)
                line.fadeInLeft -= 1
            }
            ring[line.write] = written
            let a = line.tap == 0 ? x : ring[(line.write - line.tap) & mask]
            if line.target != line.tap {
                let b = line.target == 0 ? x : ring[(line.write - line.target) & mask]
                buffer[k] = a + (b - a) * line.mix
                line.mix += line.mixStep
                if line.mix >= 1 { line.tap = line.target }
            } else {
                buffer[k] = a
            }
            line.write = (line.write + 1) & mask
        }
        line.written = min(line.written + frames, mask)
        if line.tap == 0 && line.target == 0 && line.seconds == 0 {
            line.active = false
            busy -= 1
        }
        lines[m] = line
    }
}
