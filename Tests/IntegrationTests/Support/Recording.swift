/// Audio captured by a ``JackProbe``'s `rec_N` ports.
///
/// Sample `i` of every channel was captured in the JACK cycle whose frame
/// time is `firstFrameTime + i` when the recording has no gaps (see
/// ``gaps``): frame times let a test line samples up with events it timed
/// with ``JackProbe/currentFrameTime()``.
public struct Recording: Sendable {
    /// One JACK period of the recording.
    public struct Period: Sendable, Equatable {
        /// Index of the period's first sample in the recording.
        public var offset: Int
        /// `jack_last_frame_time` of the cycle that captured it.
        public var frameTime: UInt32
        /// The cycle's span of JACK's microsecond clock, from its wakeup to
        /// the next one's (`jack_get_cycle_times`); empty when unknown.
        public var cycle: Range<UInt64> = 0..<0
    }

    /// A place where consecutive periods are not adjacent in JACK time: the
    /// recorder missed cycles (an xrun on the dummy backend, for instance),
    /// so the audio on either side is not continuous.
    public struct Gap: Sendable, Equatable {
        /// Index of the first sample after the gap.
        public var offset: Int
        /// Frames of JACK time missing from the recording (negative if time
        /// went backwards).
        public var missingFrames: Int
    }

    /// Samples per channel; `channels[0]` comes from `rec_1`.
    public var channels: [[Float]]
    public var sampleRate: Int
    /// Frame time of the first sample (`jack_last_frame_time` of the first
    /// recorded cycle).
    public var firstFrameTime: UInt32
    /// Where each period starts, in order.
    public var periods: [Period]
    /// True if recording stopped early because the preallocated buffer was
    /// full.
    public var overflowed: Bool

    /// - Parameter periods: as captured; see ``repairingMisreadFrameTimes(_:)``.
    public init(channels: [[Float]], sampleRate: Int, firstFrameTime: UInt32, periods: [Period], overflowed: Bool) {
        self.channels = channels
        self.sampleRate = sampleRate
        self.periods = Self.repairingMisreadFrameTimes(periods)
        self.firstFrameTime = self.periods.first?.frameTime ?? firstFrameTime
        self.overflowed = overflowed
    }

    /// Corrects frame times JACK2 reported wrongly.
    ///
    /// A client whose cycle runs late (common on the dummy backend on a busy
    /// machine) can read `jack_last_frame_time` after the server has already
    /// started the next cycle, and get a time one period ahead. That shows as
    /// a period whose time disagrees with both neighbours while they agree
    /// with each other (a "+64 then −64" pair of gaps, with no break in the
    /// audio). Such an isolated period gets the time its neighbours imply;
    /// so does a first period that disagrees with the two after it.
    public static func repairingMisreadFrameTimes(_ periods: [Period]) -> [Period] {
        guard periods.count >= 3 else { return periods }
        var repaired = periods
        let (first, second, third) = (repaired[0], repaired[1], repaired[2])
        if second.frameTime &- first.frameTime != UInt32(truncatingIfNeeded: second.offset - first.offset),
           third.frameTime &- second.frameTime == UInt32(truncatingIfNeeded: third.offset - second.offset) {
            repaired[0].frameTime = second.frameTime &- UInt32(truncatingIfNeeded: second.offset - first.offset)
            repaired[0].cycle = 0..<0
        }
        for index in 1..<(repaired.count - 1) {
            let previous = repaired[index - 1], current = repaired[index], next = repaired[index + 1]
            let expected = previous.frameTime &+ UInt32(truncatingIfNeeded: current.offset - previous.offset)
            let expectedNext = previous.frameTime &+ UInt32(truncatingIfNeeded: next.offset - previous.offset)
            if current.frameTime != expected && next.frameTime == expectedNext {
                repaired[index].frameTime = expected
                repaired[index].cycle = 0..<0 // read in the next cycle too
            }
        }
        return repaired
    }

    /// Samples per channel.
    public var frameCount: Int { channels.first?.count ?? 0 }

    /// Length in seconds.
    public var duration: Double { Double(frameCount) / Double(sampleRate) }

    /// The stretches of the recording between ``gaps``: within each, every
    /// sample follows the previous one in JACK time.
    public var continuousRanges: [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        for gap in gaps {
            if gap.offset > start { ranges.append(start..<gap.offset) }
            start = gap.offset
        }
        if frameCount > start { ranges.append(start..<frameCount) }
        return ranges
    }

    /// The longest of ``continuousRanges`` (the first if several tie), or
    /// an empty range for an empty recording.
    public var longestContinuousRange: Range<Int> {
        continuousRanges.reduce(0..<0) { $1.count > $0.count ? $1 : $0 }
    }

    /// The samples of `rec_<number>` (1-based, as in the port name).
    public func samples(ofPort number: Int) -> [Float] {
        precondition(channels.indices.contains(number - 1), "no rec_\(number) in this recording")
        return channels[number - 1]
    }

    /// Samples covering `seconds` at this recording's rate.
    public func frames(forSeconds seconds: Double) -> Int {
        Int((seconds * Double(sampleRate)).rounded())
    }

    /// Discontinuities in JACK time between consecutive periods. Empty for
    /// a recording where every cycle was captured.
    public var gaps: [Gap] {
        var found: [Gap] = []
        for (previous, next) in zip(periods, periods.dropFirst()) {
            let expected = previous.frameTime &+ UInt32(truncatingIfNeeded: next.offset - previous.offset)
            if next.frameTime != expected {
                let missing = Int(Int32(bitPattern: next.frameTime &- expected))
                found.append(Gap(offset: next.offset, missingFrames: missing))
            }
        }
        return found
    }

    /// The sample index captured at JACK frame time `frameTime`, or nil if
    /// that time falls outside the recording or in a gap.
    public func sampleIndex(atFrameTime frameTime: UInt32) -> Int? {
        // The last period that starts at or before frameTime.
        for (position, period) in periods.enumerated().reversed() {
            let delta = Int(Int32(bitPattern: frameTime &- period.frameTime))
            guard delta >= 0 else { continue }
            let end = position + 1 < periods.count ? periods[position + 1].offset : frameCount
            let index = period.offset + delta
            return index < end ? index : nil
        }
        return nil
    }

    /// The sample at JACK time `microseconds`, as JACK maps it in the
    /// period it falls in (`jack_time_to_frames` in that cycle: the time's
    /// place in the cycle's span, to the nearest frame), as the rig places a
    /// time tag. Nil outside the recording or where a cycle's span is unknown.
    public func sampleIndex(atJackTime microseconds: UInt64) -> Int? {
        guard let position = periods.firstIndex(where: { $0.cycle.contains(microseconds) }) else { return nil }
        let period = periods[position]
        let end = position + 1 < periods.count ? periods[position + 1].offset : frameCount
        let length = Double(period.cycle.upperBound - period.cycle.lowerBound)
        let offset = (Double(microseconds - period.cycle.lowerBound) / length * Double(end - period.offset)).rounded()
        return period.offset + Int(offset)
    }

    /// The JACK frame time of sample `index`.
    public func frameTime(ofSample index: Int) -> UInt32? {
        guard index >= 0, index < frameCount,
              let period = periods.last(where: { $0.offset <= index }) else { return nil }
        return period.frameTime &+ UInt32(index - period.offset)
    }
}
