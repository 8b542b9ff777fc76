import Foundation
import Testing

/// Measurements on recorded audio: levels, clicks, envelopes, sine fits,
/// gains and delays. Pure functions on `[Float]`; sums are accumulated in
/// `Double`.
///
/// Every function takes an optional `range` of sample indices (the whole
/// signal if nil); the range must lie within the signal.
public enum SignalAnalysis {
    /// The result of ``fitSine(_:frequency:sampleRate:in:)``: the signal
    /// modelled as `amplitude * sin(2π f n / sampleRate + phase) + offset`,
    /// `n` counted from the start of the range.
    public struct SineFit: Sendable, Equatable {
        public var amplitude: Float
        /// Radians, in (-π, π].
        public var phase: Float
        /// The DC component.
        public var offset: Float
        /// RMS of what the model does not explain (noise, other
        /// frequencies, distortion, clicks).
        public var residualRMS: Float
    }

    /// Which way a level crosses a threshold.
    public enum Direction: Sendable {
        /// From below the threshold to at or above it.
        case rising
        /// From above the threshold to at or below it.
        case falling
    }

    // MARK: Levels

    /// Root mean square. 0 for an empty range.
    public static func rms(_ signal: [Float], in range: Range<Int>? = nil) -> Float {
        let range = checked(range, signal)
        guard !range.isEmpty else { return 0 }
        var sum = 0.0
        for index in range { sum += Double(signal[index]) * Double(signal[index]) }
        return Float((sum / Double(range.count)).squareRoot())
    }

    /// Largest absolute sample value. 0 for an empty range.
    public static func peak(_ signal: [Float], in range: Range<Int>? = nil) -> Float {
        checked(range, signal).reduce(0) { max($0, abs(signal[$1])) }
    }

    /// Mean value (the DC component).
    public static func mean(_ signal: [Float], in range: Range<Int>? = nil) -> Float {
        let range = checked(range, signal)
        guard !range.isEmpty else { return 0 }
        return Float(range.reduce(0.0) { $0 + Double(signal[$1]) } / Double(range.count))
    }

    /// Linear amplitude to decibels (`20 log10`); `-infinity` for 0.
    public static func decibels(_ linear: Float) -> Float {
        linear > 0 ? 20 * log10(linear) : -.infinity
    }

    /// Decibels to linear amplitude.
    public static func linear(decibels: Float) -> Float {
        pow(10, decibels / 20)
    }

    /// RMS level in dB relative to an RMS of 1 (a full-scale sine reads
    /// −3.01 dB).
    public static func rmsDecibels(_ signal: [Float], in range: Range<Int>? = nil) -> Float {
        decibels(rms(signal, in: range))
    }

    /// The amplitude of a pure sine with this RMS (`rms · √2`).
    public static func amplitudeFromRMS(_ signal: [Float], in range: Range<Int>? = nil) -> Float {
        rms(signal, in: range) * Float(2.0.squareRoot())
    }

    // MARK: Clicks

    /// The largest jump between consecutive samples, `max |x[k] − x[k−1]|`.
    /// A sine of amplitude A and frequency f never steps more than
    /// `2π f A / sampleRate`; anything above that is a click.
    public static func maxAbsoluteStep(_ signal: [Float], in range: Range<Int>? = nil) -> Float {
        largestStep(signal, in: range)?.step ?? 0
    }

    /// Where the largest jump happens: `index` is the sample after the jump.
    public static func largestStep(_ signal: [Float], in range: Range<Int>? = nil) -> (index: Int, step: Float)? {
        let range = checked(range, signal)
        guard range.count >= 2 else { return nil }
        var best = (index: range.lowerBound + 1, step: Float(0))
        for index in (range.lowerBound + 1)..<range.upperBound {
            let step = abs(signal[index] - signal[index - 1])
            if step > best.step { best = (index, step) }
        }
        return best
    }

    /// The largest third difference, |x[k] − 3x[k−1] + 3x[k−2] − x[k−3]|:
    /// a cut or a kink shows in it wherever it falls, even at a zero
    /// crossing, where a step between samples may be small.
    public static func maximumThirdDifference(_ signal: [Float]) -> Float {
        guard signal.count > 3 else { return 0 }
        var largest: Float = 0
        for k in 3..<signal.count {
            largest = max(largest, abs(signal[k] - 3 * signal[k - 1] + 3 * signal[k - 2] - signal[k - 3]))
        }
        return largest
    }

    /// The largest step a clean sine of this frequency and amplitude can make.
    public static func maximumSineStep(frequency: Double, amplitude: Float, sampleRate: Double) -> Float {
        Float(2 * sin(Double.pi * frequency / sampleRate)) * amplitude
    }

    // MARK: Envelopes

    /// RMS over consecutive windows: element `i` covers samples
    /// `i·hop ..< i·hop + window`. Only whole windows are included.
    public static func rmsEnvelope(_ signal: [Float], window: Int, hop: Int? = nil,
                                   in range: Range<Int>? = nil) -> [Float] {
        precondition(window > 0 && (hop ?? window) > 0)
        let range = checked(range, signal)
        let hop = hop ?? window
        var envelope: [Float] = []
        var start = range.lowerBound
        while start + window <= range.upperBound {
            envelope.append(rms(signal, in: start..<(start + window)))
            start += hop
        }
        return envelope
    }

    /// The first sample at which the RMS over the trailing `window` samples
    /// (the window ending at and including that sample) crosses `level`, or
    /// nil if it never does. "Crosses" means: was on the other side at the
    /// first full window of the range, or at some later sample.
    ///
    /// Useful for "when did the fade reach −6 dB": the answer lags the
    /// instantaneous level by about half a window.
    public static func firstCrossing(_ signal: [Float], level: Float, direction: Direction, window: Int,
                                     in range: Range<Int>? = nil) -> Int? {
        precondition(window > 0)
        let range = checked(range, signal)
        guard range.count >= window else { return nil }
        let threshold = Double(level) * Double(level) * Double(window)  // compare sums of squares
        var sum = 0.0
        for index in range.lowerBound..<(range.lowerBound + window) { sum += Double(signal[index]) * Double(signal[index]) }
        func crossed(_ sum: Double) -> Bool { direction == .rising ? sum >= threshold : sum <= threshold }
        // Already on the far side at the start: that is not a crossing.
        var armed = !crossed(sum)
        for end in (range.lowerBound + window)..<range.upperBound {
            let leaving = Double(signal[end - window])
            let entering = Double(signal[end])
            sum += entering * entering - leaving * leaving
            if sum < 0 { sum = 0 }  // rounding
            if crossed(sum) {
                if armed { return end }
            } else {
                armed = true
            }
        }
        return nil
    }

    /// The first index of `values` (an envelope, say) at which they reach
    /// `level` in the given direction.
    public static func firstIndex(of values: [Float], crossing level: Float, direction: Direction) -> Int? {
        values.firstIndex { direction == .rising ? $0 >= level : $0 <= level }
    }

    // MARK: Sines

    /// A reference sine, as ``JackProbe`` plays it (phase 0 at sample 0).
    public static func sine(frequency: Double, amplitude: Float, sampleRate: Double, count: Int,
                            phase: Double = 0) -> [Float] {
        (0..<count).map { amplitude * Float(sin(2 * Double.pi * frequency * Double($0) / sampleRate + phase)) }
    }

    /// Least-squares fit of a sine of known frequency (plus DC). In a mix of
    /// sines at different frequencies it measures this one's component alone,
    /// given a window of many periods of their difference frequency.
    public static func fitSine(_ signal: [Float], frequency: Double, sampleRate: Double,
                               in range: Range<Int>? = nil) -> SineFit {
        let range = checked(range, signal)
        guard range.count >= 3 else { return SineFit(amplitude: 0, phase: 0, offset: 0, residualRMS: 0) }
        let omega = 2 * Double.pi * frequency / sampleRate
        // Normal equations for x ≈ a·sin + b·cos + c.
        var ss = 0.0, sc = 0.0, cc = 0.0, s1 = 0.0, c1 = 0.0
        var xs = 0.0, xc = 0.0, x1 = 0.0
        for (n, index) in range.enumerated() {
            let s = sin(omega * Double(n)), c = cos(omega * Double(n)), x = Double(signal[index])
            ss += s * s; sc += s * c; cc += c * c; s1 += s; c1 += c
            xs += x * s; xc += x * c; x1 += x
        }
        let count = Double(range.count)
        let solution = solve3x3([[ss, sc, s1], [sc, cc, c1], [s1, c1, count]], [xs, xc, x1]) ?? [0, 0, 0]
        let (a, b, offset) = (solution[0], solution[1], solution[2])
        var residual = 0.0
        for (n, index) in range.enumerated() {
            let model = a * sin(omega * Double(n)) + b * cos(omega * Double(n)) + offset
            let error = Double(signal[index]) - model
            residual += error * error
        }
        return SineFit(amplitude: Float((a * a + b * b).squareRoot()), phase: Float(atan2(b, a)),
                       offset: Float(offset), residualRMS: Float((residual / count).squareRoot()))
    }

    /// The amplitude of the component at `frequency` (see ``fitSine(_:frequency:sampleRate:in:)``).
    public static func sineAmplitude(_ signal: [Float], frequency: Double, sampleRate: Double,
                                     in range: Range<Int>? = nil) -> Float {
        fitSine(signal, frequency: frequency, sampleRate: sampleRate, in: range).amplitude
    }

    /// Frequency estimated from rising zero crossings (interpolated), for a
    /// signal dominated by one sine. Nil with fewer than two crossings.
    public static func zeroCrossingFrequency(_ signal: [Float], sampleRate: Double,
                                             in range: Range<Int>? = nil) -> Double? {
        let range = checked(range, signal)
        var first: Double?
        var last = 0.0
        var cycles = 0
        guard range.count >= 2 else { return nil }
        for index in (range.lowerBound + 1)..<range.upperBound where signal[index - 1] < 0 && signal[index] >= 0 {
            let before = Double(signal[index - 1]), after = Double(signal[index])
            let crossing = Double(index - 1) + (-before) / (after - before)
            if first == nil { first = crossing } else { cycles += 1 }
            last = crossing
        }
        guard let first, cycles > 0, last > first else { return nil }
        return Double(cycles) * sampleRate / (last - first)
    }

    // MARK: Comparisons

    /// Pearson correlation of two equally long signals over `range`, in
    /// [−1, 1]; 0 if either is constant.
    public static func correlation(_ x: [Float], _ y: [Float], in range: Range<Int>? = nil) -> Float {
        let range = checked(checked(range, x), y)
        guard range.count >= 2 else { return 0 }
        let meanX = Double(mean(x, in: range)), meanY = Double(mean(y, in: range))
        var xy = 0.0, xx = 0.0, yy = 0.0
        for index in range {
            let dx = Double(x[index]) - meanX, dy = Double(y[index]) - meanY
            xy += dx * dy; xx += dx * dx; yy += dy * dy
        }
        guard xx > 0, yy > 0 else { return 0 }
        return Float(xy / (xx * yy).squareRoot())
    }

    /// The gain g that best explains `output ≈ g · reference` over `range`
    /// (least squares: ⟨o, r⟩ / ⟨r, r⟩). Negative for an inverted signal;
    /// 0 if the reference is silent.
    public static func gain(of output: [Float], relativeTo reference: [Float], in range: Range<Int>? = nil) -> Float {
        let range = checked(checked(range, output), reference)
        var outputReference = 0.0, referenceReference = 0.0
        for index in range {
            outputReference += Double(output[index]) * Double(reference[index])
            referenceReference += Double(reference[index]) * Double(reference[index])
        }
        return referenceReference > 0 ? Float(outputReference / referenceReference) : 0
    }

    /// The gain applied to a sine of known frequency and amplitude: the
    /// fitted amplitude of that component divided by `referenceAmplitude`.
    /// Independent of delay and phase.
    public static func sineGain(_ output: [Float], frequency: Double, referenceAmplitude: Float,
                                sampleRate: Double, in range: Range<Int>? = nil) -> Float {
        sineAmplitude(output, frequency: frequency, sampleRate: sampleRate, in: range) / referenceAmplitude
    }

    /// The delay (in samples, 0…maxLag) at which `output` best matches
    /// `reference`, i.e. `output[n] ≈ g · reference[n − lag]`, with the
    /// normalised correlation at that lag. Cost: O(range · maxLag).
    public static func bestLag(of output: [Float], relativeTo reference: [Float], maxLag: Int,
                               in range: Range<Int>? = nil) -> (lag: Int, correlation: Float) {
        precondition(maxLag >= 0)
        let range = checked(checked(range, output), reference)
        var best = (lag: 0, correlation: -Float.infinity)
        for lag in 0...maxLag {
            let start = max(range.lowerBound, lag)
            guard start < range.upperBound else { break }
            var xy = 0.0, xx = 0.0, yy = 0.0
            for index in start..<range.upperBound {
                let o = Double(output[index]), r = Double(reference[index - lag])
                xy += o * r; xx += o * o; yy += r * r
            }
            let value = xx > 0 && yy > 0 ? Float(xy / (xx * yy).squareRoot()) : 0
            if value > best.correlation { best = (lag, value) }
        }
        return best.correlation.isFinite ? best : (0, 0)
    }

    // MARK: Private

    /// The range, or the whole signal; a range beyond the signal (a take
    /// shorter than its test expects) is a failed test, cut to the signal,
    /// never a trap: a trap would end every test still to run.
    private static func checked(_ range: Range<Int>?, _ signal: [Float]) -> Range<Int> {
        guard let range else { return signal.indices }
        guard range.lowerBound >= 0 && range.upperBound <= signal.count else {
            Issue.record("range \(range) outside a signal of \(signal.count) samples")
            return range.clamped(to: signal.indices)
        }
        return range
    }

    /// Gaussian elimination with partial pivoting; nil if singular.
    private static func solve3x3(_ matrix: [[Double]], _ vector: [Double]) -> [Double]? {
        var a = matrix
        var b = vector
        for column in 0..<3 {
            guard let pivot = (column..<3).max(by: { abs(a[$0][column]) < abs(a[$1][column]) }),
                  abs(a[pivot][column]) > 1e-12 else { return nil }
            a.swapAt(column, pivot)
            b.swapAt(column, pivot)
            for row in (column + 1)..<3 {
                let factor = a[row][column] / a[column][column]
                for k in column..<3 { a[row][k] -= factor * a[column][k] }
                b[row] -= factor * b[column]
            }
        }
        var x = [0.0, 0.0, 0.0]
        for row in stride(from: 2, through: 0, by: -1) {
            var sum = b[row]
            for k in (row + 1)..<3 { sum -= a[row][k] * x[k] }
            x[row] = sum / a[row][row]
        }
        return x
    }
}
