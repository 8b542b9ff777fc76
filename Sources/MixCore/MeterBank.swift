import Synchronization

/// Level meters for every input and output: peak and sum of squares,
/// accumulated on the audio thread with atomics and taken (read and reset)
/// by the control side, which turns them into dBFS at its own rate.
///
/// Each source is metered twice: its input as it arrives (`/meters/input`),
/// and as the matrix hears it (`/meters/source`): after its level, mute,
/// polarity, DCAs and mute groups, which is the input's period scaled by
/// the source's gain at the period's end (exact while the gain is settled).
///
/// Made for as many channels as a rig may ever have (`capacity` inputs,
/// as many outputs and as many sources), so that a rig changing size never reallocates what the
/// audio thread writes and the meters thread reads: each side says how many
/// channels it means.
public struct MeterBank: ~Copyable, @unchecked Sendable {
    /// Inputs (and outputs) the bank holds at most.
    public let capacity: Int
    /// Peaks as the bit pattern of a non-negative Float (such patterns order
    /// like the floats). `capacity` inputs first, then `capacity` outputs,
    /// then `capacity` sources after their gains.
    @usableFromInline let peaks: UnsafeMutablePointer<Atomic<UInt32>>
    /// Sums of squares in fixed point, `scale` per unit.
    @usableFromInline let sums: UnsafeMutablePointer<Atomic<UInt64>>
    /// Frames accumulated since the last take.
    @usableFromInline let frames = Atomic<Int>(0)
    /// Metering costs a pass over every channel: only while someone reads.
    @usableFromInline let enabled = Atomic<Bool>(false)
    @inlinable static var scale: Float { 16_777_216 } // 2^24
    /// Inputs, outputs, sources after their gains, and the outputs'
    /// limiters (the peak of 1 / gain: the most they took off).
    static let sections = 4

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        let count = Self.sections * self.capacity
        peaks = .allocate(capacity: count)
        sums = .allocate(capacity: count)
        for c in 0..<count {
            (peaks + c).initialize(to: Atomic(0))
            (sums + c).initialize(to: Atomic(0))
        }
    }

    deinit {
        peaks.deinitialize(count: Self.sections * capacity)
        sums.deinitialize(count: Self.sections * capacity)
        peaks.deallocate()
        sums.deallocate()
    }

    // MARK: - Control side

    public func setEnabled(_ on: Bool) { enabled.store(on, ordering: .relaxed) }

    /// Levels since the last take of the first `inputs` inputs, then the
    /// first `outputs` outputs, then the first `inputs` sources after their
    /// gains: the linear peak and the sum of squares, over `frames` frames;
    /// then the first `outputs` limiters' largest reduction, as 1 / gain
    /// (0: none). Channels past those are cleared too, so that a channel
    /// added later starts from nothing.
    public func take(inputs: Int, outputs: Int) -> (peak: [Float], sumOfSquares: [Double], frames: Int) {
        let count = frames.exchange(0, ordering: .acquiring)
        var peak: [Float] = [], sum: [Double] = []
        peak.reserveCapacity(inputs + outputs)
        sum.reserveCapacity(inputs + outputs)
        for (first, shown) in [(0, min(inputs, capacity)), (capacity, min(outputs, capacity)),
                               (2 * capacity, min(inputs, capacity)), (3 * capacity, min(outputs, capacity))] {
            for c in first..<(first + capacity) {
                let level = Float(bitPattern: takePeak(channel: c))
                let energy = Double(sums[c].exchange(0, ordering: .relaxed)) / Double(Self.scale)
                if c < first + shown {
                    peak.append(level)
                    sum.append(energy)
                }
            }
        }
        return (peak, sum, count)
    }

    // MARK: - Audio thread

    /// Adds a period of the first `inputs` inputs and `outputs` outputs, and
    /// of the sources after `sourceGains` (each source's gain at the period's
    /// end; nil: none), and each output's limiter's lowest gain over it
    /// (`limiterGains`, read if `limited`).
    @_noLocks
    func measure(_ input: UnsafePointer<UnsafePointer<Float>>, inputs: Int,
                 _ output: UnsafePointer<UnsafeMutablePointer<Float>>, outputs: Int, frames count: Int,
                 sourceGains: UnsafePointer<Float>? = nil, limiterGains: UnsafeMutablePointer<Float>? = nil,
                 limited: Bool = false) {
        guard enabled.load(ordering: .relaxed) else { return }
        for n in 0..<min(inputs, capacity) {
            let (peak, sum) = accumulate(input[n], count: count, into: n)
            guard let sourceGains else { continue }
            let gain = sourceGains[n] < 0 ? -sourceGains[n] : sourceGains[n]
            store(peak: peak * gain, sum: sum * gain * gain, into: 2 * capacity + n)
        }
        for m in 0..<min(outputs, capacity) { accumulate(UnsafePointer(output[m]), count: count, into: capacity + m) }
        if limited, let limiterGains {
            for m in 0..<min(outputs, capacity) where limiterGains[m] > 1e-6 && limiterGains[m] < 1 {
                raisePeak(channel: 3 * capacity + m, to: (1 / limiterGains[m]).bitPattern)
            }
        }
        frames.add(count, ordering: .releasing)
    }

    /// Adds a period of one channel; returns its peak and sum of squares.
    @_noLocks @discardableResult
    func accumulate(_ samples: UnsafePointer<Float>, count: Int, into channel: Int) -> (peak: Float, sum: Float) {
        // 16 samples at a time in two 8-lane halves (a scalar loop here cost
        // more than the whole 64x64 mix: each addition waited for the last).
        typealias V = SIMD8<Float>
        let absolute = SIMD8<UInt32>(repeating: 0x7FFF_FFFF)
        let peakLimit = V(repeating: 1e6), sumLimit = V(repeating: 100)
        var peakA = V(), peakB = V(), sumA = V(), sumB = V()
        var k = 0
        while k + 16 <= count {
            let raw = UnsafeRawPointer(samples + k)
            let a = raw.loadUnaligned(as: V.self), b = raw.loadUnaligned(fromByteOffset: 32, as: V.self)
            let magA = unsafeBitCast(unsafeBitCast(a, to: SIMD8<UInt32>.self) & absolute, to: V.self)
            let magB = unsafeBitCast(unsafeBitCast(b, to: SIMD8<UInt32>.self) & absolute, to: V.self)
            // NaN and absurd values skipped (NaN fails every comparison).
            peakA.replace(with: magA, where: (magA .> peakA) .& (magA .< peakLimit))
            peakB.replace(with: magB, where: (magB .> peakB) .& (magB .< peakLimit))
            let keptA = V().replacing(with: a, where: magA .< sumLimit)
            let keptB = V().replacing(with: b, where: magB .< sumLimit)
            // Multiply, then add: MixCore is built for the baseline CPU,
            // where a fused multiply-add is a call to the C library per lane.
            sumA += keptA * keptA
            sumB += keptB * keptB
            k += 16
        }
        var peak: Float = 0, sum: Float = 0
        for lane in 0..<8 {
            peak = max(peak, max(peakA[lane], peakB[lane]))
            sum += sumA[lane] + sumB[lane]
        }
        while k < count {
            let x = samples[k]
            let magnitude = x < 0 ? -x : x
            if magnitude > peak && magnitude < 1e6 { peak = magnitude }
            if magnitude < 100 { sum += x * x }
            k += 1
        }
        store(peak: peak, sum: sum, into: channel)
        return (peak, sum)
    }

    @_noLocks
    func store(peak: Float, sum: Float, into channel: Int) {
        // A source's gain may be anything its slot holds (NaN, infinite):
        // each figure is clamped to its range, NaN to 0, before the
        // conversion, which would trap (`min` lets NaN through).
        let peak: Float = peak >= 0 && peak <= 1e6 ? peak : peak > 1e6 ? 1e6 : 0
        let sum: Float = sum >= 0 && sum <= 1e9 ? sum : sum > 1e9 ? 1e9 : 0
        raisePeak(channel: channel, to: peak.bitPattern)
        sums[channel].add(UInt64(sum * Self.scale), ordering: .relaxed)
    }

    /// Raises a channel's peak to `bits` (a non-negative float's pattern)
    /// unless it holds more. A take between the load and the exchange
    /// resets it to 0: the loop sees that and tries again, so no period's
    /// peak is ever lost.
    @inlinable @_noLocks
    func raisePeak(channel: Int, to bits: UInt32) {
        var old = peaks[channel].load(ordering: .relaxed)
        while bits > old {
            let (exchanged, found) = peaks[channel].compareExchange(expected: old, desired: bits, ordering: .relaxed)
            if exchanged { return }
            old = found
        }
    }

    /// A channel's peak since the last take, as a float's pattern, reset to 0.
    func takePeak(channel: Int) -> UInt32 { peaks[channel].exchange(0, ordering: .relaxed) }
}
