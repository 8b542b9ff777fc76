import Foundation
import SystemSupport
import Testing
@testable import MixCore

/// A cue's place in its period: its share of the period's span of the cue
/// clock, to the nearest frame, as `jack_time_to_frames` gives it in that
/// cycle (`frames + rint((usecs − current) / (next − current) · n)`).
@Suite struct PeriodSpanTests {
    /// JACK's own formula, in floating point, for the integer form to be held to.
    static func jackFrame(_ time: UInt64, _ span: PeriodSpan, frames: Int) -> Int {
        Int((Double(Int64(time) - Int64(span.start)) / Double(span.end - span.start) * Double(frames)).rounded())
    }

    @Test func aTimeInsideThePeriodFallsOnJacksFrame() {
        var random = SplitMix(seed: 26)
        for _ in 0..<100_000 {
            let frames = [64, 128, 256, 1024][Int(random.next() % 4)]
            let start = 1_000_000_000 + random.next() % 1_000_000_000
            // A loaded dummy server's cycle: its nominal length ± 10 %.
            let nominal = UInt64(frames) * 1_000_000 / 48_000
            let span = PeriodSpan(start: start, end: start + nominal * 9 / 10 + random.next() % (nominal / 5))
            let time = start + 1 + random.next() % (span.end - start - 1)
            let expected = Self.jackFrame(time, span, frames: frames)
            #expect(span.offset(of: time, frames: frames) == (expected < frames ? expected : nil),
                    "\(time) in \(span.start)..<\(span.end), \(frames) frames")
        }
    }

    @Test func aPassedTimeIsNowAndALaterOneWaits() {
        let span = PeriodSpan(start: 10_000, end: 11_333)
        #expect(span.offset(of: 9_000, frames: 64) == 0, "passed: at once")
        #expect(span.offset(of: 10_000, frames: 64) == 0, "its first frame")
        #expect(span.offset(of: 11_333, frames: 64) == nil, "the next period's")
        #expect(span.offset(of: 11_330, frames: 64) == nil, "rounds to the next period's first frame: waits for it")
        #expect(span.offset(of: 10_666, frames: 64) == 32, "halfway")
        // Offline, periods are counted in frames: the offset is the distance.
        #expect(PeriodSpan(start: 896, end: 960).offset(of: 900, frames: 64) == 4)
        // A span that does not move forward (never from JACK) is one tick long.
        #expect(PeriodSpan(start: 5, end: 5).end == 6)
    }
}
