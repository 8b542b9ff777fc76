import Foundation

/// What crossed a network link between two JACK servers, from two
/// ``JackTap`` takes: one on server A that played a ``JackTap/Signal/code(_:)``
/// signal (its frame time as a staircase) and recorded anything (for its
/// periods' frame times and JACK times), one on server B that recorded
/// what came out of the link.
///
/// Every period B heard is placed in A's time: the code says which frame
/// of A's it was played at, A's take says when (JACK microseconds) that
/// frame was in A's graph, and B's take when the period was in B's (each
/// by when its recorder's callback ran, ``Clock/callback``). Both
/// servers run on one machine, so their JACK clocks (`jack_get_time`, the
/// monotonic clock) are one clock, and the difference is the latency the
/// link added, whatever the two servers' frame counters say. A resampling
/// link (zita-njbridge) turns the staircase into fractional frames, which
/// is why the code is read as a real number.
struct LinkMeasurement: Sendable {
    /// One period B recorded.
    struct Period: Sendable {
        /// Its first sample in B's recording.
        var offset: Int
        /// Frames in it.
        var frames: Int
        /// B's frame time, counted on past 2^32 (no wrap).
        var frame: Int64
        /// B's JACK time of its first sample, in microseconds.
        var microseconds: Double
        /// A's frame time the first sample was played at (counted on as
        /// ``frame`` is), or nil when it carries no code (silence).
        var played: Double?
        /// How long after A had it B had it, in seconds; nil with no code.
        var latency: Double?
    }

    let sampleRate: Int
    let periods: [Period]
    /// B's take, for the tone.
    let heard: Recording
    /// B's frames of JACK time missing from its recording (its server skipped cycles).
    let heardGaps: [Recording.Gap]

    /// Which of a take's times says when a period was in its graph.
    enum Clock: Sendable {
        /// The backend's time of the cycle (`jack_get_cycle_times`): its
        /// own account, which on the build machine ran up to 9 ms off the
        /// clock (`dummy` under load) and up to 2 s off (a netjack2 slave
        /// around a dropped link).
        case cycle
        /// When the recorder's callback began (`jack_get_time()`): the
        /// clock itself, later than the cycle's start by the clients before
        /// it in the graph, and by any delay in waking them.
        case callback

        func times(of take: JackTap.Take) -> [Double] {
            switch self {
            case .cycle: take.periodMicroseconds.map { Double($0) }
            case .callback: take.callbackMicroseconds.map { Double($0) }
            }
        }
    }

    /// - Parameters:
    ///   - codeChannel: the record port (1-based) of B's take that carries the code.
    ///   - amplitude: the code's amplitude as played.
    ///   - clock: which of the two takes' times to go by.
    init(played: JackTap.Take, heard: JackTap.Take, codeChannel: Int, amplitude: Double, clock: Clock = .callback) {
        let rate = Double(heard.recording.sampleRate)
        sampleRate = heard.recording.sampleRate
        self.heard = heard.recording
        heardGaps = heard.recording.gaps
        let modulus = Double(JackTap.Signal.codeModulus)

        // A's periods: frame time (counted on) and JACK time, in order.
        let aFrames = Self.countedOn(played.recording.periods.map(\.frameTime)).map { Double($0) }
        let aTimes = clock.times(of: played)
        /// A's frame at a JACK time, and A's JACK time of a frame, from the
        /// period that holds it (or the nearest), at the nominal rate.
        func aFrame(at microseconds: Double) -> Double? {
            guard let index = Self.lastIndex(in: aTimes, notAbove: microseconds) else { return nil }
            return aFrames[index] + (microseconds - aTimes[index]) * rate / 1e6
        }
        func aMicroseconds(at frame: Double) -> Double? {
            guard let index = Self.lastIndex(in: aFrames, notAbove: frame) else { return nil }
            return aTimes[index] + (frame - aFrames[index]) * 1e6 / rate
        }

        let code = heard.recording.channels[codeChannel - 1]
        let bFrames = Self.countedOn(heard.recording.periods.map(\.frameTime))
        let bTimes = clock.times(of: heard)
        let periodsHeard = heard.recording.periods
        var result: [Period] = []
        result.reserveCapacity(periodsHeard.count)
        for (index, period) in periodsHeard.enumerated() {
            let end = index + 1 < periodsHeard.count ? periodsHeard[index + 1].offset : code.count
            let microseconds = bTimes[index]
            var entry = Period(offset: period.offset, frames: end - period.offset, frame: bFrames[index],
                               microseconds: microseconds, played: nil, latency: nil)
            let value = period.offset < code.count ? Double(code[period.offset]) : 0
            let steps = value / amplitude * modulus - 1
            // The code repeats every 2^20 frames (21.8 s at 48 kHz): take
            // the repetition nearest to A's frame at this moment (the
            // latency is far shorter than 2^19 frames).
            if value > amplitude / modulus / 2, steps < modulus, let now = aFrame(at: microseconds) {
                let played = steps + ((now - steps) / modulus).rounded() * modulus
                entry.played = played
                if let then = aMicroseconds(at: played) { entry.latency = (microseconds - then) / 1e6 }
            }
            result.append(entry)
        }
        periods = result
    }

    /// B's periods from the first with code, `settle` seconds later on.
    func steady(after settle: Double) -> ArraySlice<Period> {
        guard let first = periods.firstIndex(where: { $0.played != nil }) else { return [] }
        let start = periods[first].microseconds + settle * 1e6
        return periods[(periods.firstIndex { $0.microseconds >= start } ?? periods.endIndex)...]
    }

    /// Where the audio broke: a period without code after one with code
    /// (one break per silent stretch), or code that does not go on from the
    /// period before by that period's length (within `tolerance` frames),
    /// between periods B recorded back to back. The code's own wrap (from
    /// 2^20 back to 1, a step a resampler rings on for a few dozen
    /// samples) is no break.
    func breaks(in range: ArraySlice<Period>, tolerance: Double) -> [(seconds: Double, what: String)] {
        var found: [(Double, String)] = []
        var previous: Period?
        let start = range.first?.microseconds ?? 0
        for period in range {
            defer { previous = period }
            guard let previous else { continue }
            let seconds = (period.microseconds - start) / 1e6
            if period.played == nil {
                if previous.played != nil && !Self.atWrap(period, after: previous) { found.append((seconds, "silence")) }
                continue
            }
            guard let before = previous.played, let played = period.played,
                  !Self.continues(period, after: previous, tolerance: tolerance),
                  period.frame - previous.frame == Int64(previous.frames) else { continue }
            found.append((seconds, String(format: "the code moved %.1f frames in a period of %d", played - before, previous.frames)))
        }
        return found
    }

    /// Whether `period` goes on from `previous` without a break: recorded
    /// back to back, its code `previous.frames` further on (within
    /// `tolerance`), or either of them at the code's wrap.
    static func continues(_ period: Period, after previous: Period, tolerance: Double) -> Bool {
        guard period.frame - previous.frame == Int64(previous.frames), previous.played != nil else { return false }
        if atWrap(period, after: previous) || atWrap(previous, after: nil) { return true }
        guard let played = period.played, let before = previous.played else { return false }
        return abs(played - before - Double(previous.frames)) <= tolerance
    }

    /// Whether a period's code is (or, without code, would be) within a few
    /// periods of the code's wrap.
    static func atWrap(_ period: Period, after previous: Period?) -> Bool {
        guard let played = period.played ?? previous?.played.map({ $0 + Double(previous!.frames) }) else { return false }
        let modulus = Double(JackTap.Signal.codeModulus)
        let place = played - (played / modulus).rounded(.down) * modulus
        return place < 256 || place > modulus - 256
    }

    /// The latency's median over each `window` seconds of `range` that
    /// has code in at least half its periods, in seconds.
    func latencyMedians(in range: ArraySlice<Period>, window: Double = 1) -> [Double] {
        guard let start = range.first?.microseconds else { return [] }
        var buckets: [Int: [Double]] = [:]
        var counts: [Int: Int] = [:]
        for period in range {
            let bucket = Int((period.microseconds - start) / 1e6 / window)
            counts[bucket, default: 0] += 1
            if let latency = period.latency { buckets[bucket, default: []].append(latency) }
        }
        return buckets.keys.sorted().compactMap { key in
            guard let values = buckets[key], values.count * 2 >= counts[key] ?? 0 else { return nil }
            return Self.median(values)
        }
    }

    /// The latency's median over `range`, in seconds.
    func latency(in range: ArraySlice<Period>) -> Double? {
        let values = range.compactMap(\.latency)
        return values.isEmpty ? nil : Self.median(values)
    }

    /// The frames between what A played and what B heard at the same
    /// moment, as each server counts them: one value for a link that adds
    /// a constant delay in frames and keeps both clocks in step (netjack2),
    /// counted per value.
    func frameOffsets(in range: ArraySlice<Period>) -> [Int64: Int] {
        var counts: [Int64: Int] = [:]
        for period in range {
            guard let played = period.played else { continue }
            counts[Int64(played.rounded()) - period.frame, default: 0] += 1
        }
        return counts
    }

    /// The samples of B's periods `range` that carry code and follow each
    /// other without a break: the longest such run.
    func longestRun(in range: ArraySlice<Period>, tolerance: Double) -> Range<Int> {
        var best = 0..<0
        var runStart: Int?
        var previous: Period?
        for period in range {
            defer { previous = period }
            let continues = previous.map { Self.continues(period, after: $0, tolerance: tolerance) } ?? false
            if period.played == nil && !continues {
                runStart = nil
            } else if !continues || runStart == nil {
                runStart = period.offset
            }
            if let runStart, period.offset + period.frames - runStart > best.count {
                best = runStart..<(period.offset + period.frames)
            }
        }
        return best
    }

    /// The first moment (B's JACK microseconds) at or after `microseconds`
    /// from which B hears code without a break for `lasting` seconds.
    func audioReturns(after microseconds: Double, lasting: Double, tolerance: Double) -> Double? {
        let from = periods.firstIndex { $0.microseconds >= microseconds } ?? periods.endIndex
        var runStart: Period?
        var previous: Period?
        for period in periods[from...] {
            defer { previous = period }
            let continues = previous.map { Self.continues(period, after: $0, tolerance: tolerance) } ?? false
            if period.played == nil && !continues {
                runStart = nil
            } else if runStart == nil || !continues {
                runStart = period
            }
            if let runStart, period.microseconds - runStart.microseconds >= lasting * 1e6 { return runStart.microseconds }
        }
        return nil
    }

    // MARK: The servers' clocks

    /// How far a server's frame clock strayed from its nominal rate: the
    /// largest relative difference, over `window` seconds at a time (by
    /// the recorder's callbacks, ``Clock/callback``), between the frames
    /// that passed and the frames the time that passed holds. The `dummy`
    /// backend in synchronous mode slows down while its graph runs late,
    /// each server by its own amount: on the 2-core build machine, under
    /// other work, by 0.4 % to a few per cent over seconds. A resampling link follows
    /// clocks that differ by parts per million and change slowly
    /// (zita-n2j's control loop settles to 0.05 Hz); it cannot follow that,
    /// and breaks.
    ///
    /// - Parameter span: JACK microseconds to look at (the other take's, say); nil: all of the take.
    static func clockWander(_ take: JackTap.Take, window: Double = 2, span: ClosedRange<Double>? = nil) -> Double {
        var frames = countedOn(take.recording.periods.map(\.frameTime))
        var times = take.callbackMicroseconds.map { Double($0) }
        if let span {
            let kept = times.indices.filter { span.contains(times[$0]) }
            frames = kept.map { frames[$0] }
            times = kept.map { times[$0] }
        }
        guard let first = times.first, let last = times.last, last - first > window * 1e6 else { return 0 }
        let rate = Double(take.recording.sampleRate)
        var worst = 0.0
        var start = 0
        while true {
            guard let end = times[start...].firstIndex(where: { $0 >= times[start] + window * 1e6 }) else { break }
            let measured = Double(frames[end] - frames[start]) / ((times[end] - times[start]) / 1e6)
            worst = max(worst, abs(measured - rate) / rate)
            start = end
        }
        return worst
    }

    /// How far either server's clock strayed while B recorded (``clockWander(_:window:span:)``).
    static func clockWander(played: JackTap.Take, heard: JackTap.Take) -> Double {
        guard let first = heard.callbackMicroseconds.first, let last = heard.callbackMicroseconds.last else { return 0 }
        let span = Double(first)...Double(last)
        return max(clockWander(played, span: span), clockWander(heard, span: span))
    }

    // MARK: The tone

    /// The frequency of a sine from its rising zero crossings (linearly
    /// interpolated) over `range`.
    static func frequency(of samples: [Float], in range: Range<Int>, sampleRate: Int) -> Double? {
        var first: Double?
        var last = 0.0
        var count = 0
        var index = range.lowerBound + 1
        while index < range.upperBound {
            let (a, b) = (Double(samples[index - 1]), Double(samples[index]))
            if a < 0, b >= 0 {
                let crossing = Double(index - 1) + a / (a - b)
                if first == nil { first = crossing }
                last = crossing
                count += 1
            }
            index += 1
        }
        guard let first, count > 1, last > first else { return nil }
        return Double(count - 1) / ((last - first) / Double(sampleRate))
    }

    // MARK: Helpers

    /// Frame times counted on across the 2^32 wrap, from the first as it is.
    static func countedOn(_ times: [UInt32]) -> [Int64] {
        var result: [Int64] = []
        result.reserveCapacity(times.count)
        var previous: UInt32?
        var value = Int64(times.first ?? 0)
        for time in times {
            if let previous { value += Int64(Int32(bitPattern: time &- previous)) }
            result.append(value)
            previous = time
        }
        return result
    }

    /// The last index whose value is at most `value` in ascending `values`.
    static func lastIndex(in values: [Double], notAbove value: Double) -> Int? {
        guard let first = values.first, first <= value else { return values.isEmpty ? nil : 0 }
        var (low, high) = (0, values.count - 1)
        while low < high {
            let middle = (low + high + 1) / 2
            if values[middle] <= value { low = middle } else { high = middle - 1 }
        }
        return low
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2]
            : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
