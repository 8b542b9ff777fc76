/// The stretch of the cue clock (`CueClock`) one period covers, from the
/// time of its first sample up to the next period's: with JACK, the cycle's
/// times as the server gives them to the process callback
/// (`jack_get_cycle_times`: when this period's wakeup was and when the next
/// one's will be); offline, its first frame and the frame after its last.
///
/// A cue's frame is worked out in the period it falls due, from that
/// period's span, as JACK's own `jack_time_to_frames` does. Two rigs on one
/// server are given the same span for the same period, so a time tag sent
/// to both lands on the same sample in each, however far ahead it was
/// sent, and whenever each rig received it.
public struct PeriodSpan: Sendable, Equatable {
    public var start: UInt64
    public var end: UInt64

    @inlinable @_noLocks
    public init(start: UInt64, end: UInt64) {
        self.start = start
        self.end = end > start ? end : start &+ 1
    }

    /// Where in a period of `frames` a cue due at `time` falls: 0 for a cue
    /// whose time has passed, nil for one due in a later period. Rounded to
    /// the nearest frame, as `jack_time_to_frames` rounds; a time rounding
    /// to the next period's first frame waits for it.
    @inlinable @inline(__always) @_noLocks
    public func offset(of time: UInt64, frames: Int) -> Int? {
        guard time > start else { return 0 }
        guard time < end else { return nil }
        // (time − start) / (end − start) × frames, to the nearest frame, in integers.
        let length = end - start
        let offset = ((time - start) &* UInt64(truncatingIfNeeded: frames) &* 2 &+ length) / (2 &* length)
        return offset < UInt64(truncatingIfNeeded: frames) ? Int(truncatingIfNeeded: offset) : nil
    }
}
