import CJack
import FoundationEssentials
import Glibc
import MixCore

/// The clock for bundles with a time: JACK's microseconds, which cues wait
/// on (`CueClock`) and the control side follows (`lastProcessedCueTime`).
extension JackHost: CueClock {
    /// JACK's microsecond clock (`jack_get_time`) at a Unix time: when a
    /// timed change is due, on the clock the audio thread is told each
    /// period's span in (`ProcessContext.process`, `PeriodSpan`). No period
    /// estimate goes into it: the audio thread finds the frame in the period
    /// the time falls in.
    public func cueTime(atUnixTime time: Double) -> UInt64? {
        withClient { client in client == nil ? nil : Self.jackMicroseconds(atUnixTime: time) }
    }

    /// The end of the span of JACK's clock the audio thread processed last:
    /// every cue due before it has been applied. What counts for the control
    /// side is where the audio is, which on a busy machine can lag the wall
    /// clock.
    public func lastProcessedCueTime() -> UInt64? {
        withClient { client in
            guard client != nil else { return nil }
            let end = context.lastCycleEnd.load(ordering: .acquiring)
            return end == 0 ? nil : end
        }
    }

    /// JACK's microseconds at a Unix time. jackd2 reads them from
    /// `CLOCK_MONOTONIC_RAW` (linux/JackLinuxTime.c); where that holds
    /// (checked at each call, `jackReadsMonotonicRaw`: another JACK, such
    /// as PipeWire's, may read `CLOCK_MONOTONIC`, which NTP slews away from
    /// it), the wall clock and that clock are read together in nanoseconds,
    /// so two rigs given one time tag find the same microsecond to within
    /// tens of nanoseconds, and the same frame. Otherwise through
    /// `jack_get_time`, to a microsecond or two. Call with a client open.
    static func jackMicroseconds(atUnixTime time: Double) -> UInt64 {
        // Nanoseconds since 1970: the same for every rig given this time (a
        // time tag's range, 1900 to 2036, is well inside; anything else is clamped).
        let seconds = time.isFinite ? min(max(time, 0), 9e9) : 0
        let target = Int64((seconds * 1e9).rounded())
        if jackReadsMonotonicRaw() {
            let (raw, wall) = Self.rawAndWallTogether()
            let nanoseconds = raw + (target - wall)
            return nanoseconds > 0 ? UInt64(nanoseconds / 1000) : 0
        }
        let (jackNow, wallNow) = Self.clocksTogether()
        let offset = Double(target - wallNow) / 1000
        return offset >= 0 ? jackNow &+ UInt64(offset) : jackNow &- UInt64(min(-offset, Double(jackNow)))
    }

    /// Whether `jack_get_time` is `CLOCK_MONOTONIC_RAW` in microseconds, as
    /// in jackd2 on Linux: a reading of that clock between two of JACK's
    /// (a few tries, for a thread preempted between them).
    static func jackReadsMonotonicRaw() -> Bool {
        for _ in 0..<4 {
            let before = jack_get_time()
            let raw = UInt64(nanoseconds(CLOCK_MONOTONIC_RAW) / 1000)
            let after = jack_get_time()
            if before <= raw && raw <= after { return true }
        }
        return false
    }

    static func nanoseconds(_ clock: clockid_t) -> Int64 {
        var now = timespec()
        clock_gettime(clock, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// `CLOCK_MONOTONIC_RAW` and the wall clock at one instant, in
    /// nanoseconds: the wall clock read between two readings of the other,
    /// the tightest of a few tries.
    static func rawAndWallTogether() -> (raw: Int64, wall: Int64) {
        var best: (raw: Int64, wall: Int64, spread: Int64) = (0, 0, .max)
        for _ in 0..<8 {
            let before = nanoseconds(CLOCK_MONOTONIC_RAW)
            let wall = nanoseconds(CLOCK_REALTIME)
            let after = nanoseconds(CLOCK_MONOTONIC_RAW)
            if after - before < best.spread { best = (before + (after - before) / 2, wall, after - before) }
            if best.spread <= 100 { break }
        }
        return (best.raw, best.wall)
    }

    /// JACK's microsecond clock and the wall clock (nanoseconds) at one
    /// instant: the wall clock read between two readings of JACK's, taking
    /// the tightest of a few tries. (Read once each, a thread preempted
    /// between the two readings, as on a loaded machine, would misplace a
    /// time tag by the length of the preemption: 18 frames, 0.4 ms, were seen.)
    static func clocksTogether() -> (jack: UInt64, wall: Int64) {
        var best: (jack: UInt64, wall: Int64, spread: UInt64) = (0, 0, .max)
        for _ in 0..<8 {
            let before = jack_get_time()
            let wall = nanoseconds(CLOCK_REALTIME)
            let after = jack_get_time()
            let spread = after &- before
            if spread < best.spread { best = (before &+ spread / 2, wall, spread) }
            if spread <= 4 { break }
        }
        return (best.jack, best.wall)
    }
}
