#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Judging a take: every period placed by its frame code, each output
/// checked against that placement, then the tone's gain, the ramp and the
/// timed bundle measured on the series.
extension Integration.PipeWireTests {
    /// The numeric checks on the take.
    func check(_ take: JackTap.Take, startup: JackTap.Startup, changeSent: Double, bundleDue: Double) throws {
        let recording = take.recording
        let rate = Double(recording.sampleRate)
        // A 3 s take: at least 1.67 s of it even when PipeWire's graph starts
        // late or skips cycles on a busy machine.
        try #require(!recording.overflowed && recording.frameCount > 80_000,
                     "\(recording.frameCount) frames, overflowed: \(recording.overflowed)")

        // The frame clock: 64 frames a period, at 48 kHz by JACK's own
        // microsecond clock (CLOCK_MONOTONIC).
        let steps = zip(recording.periods, recording.periods.dropFirst()).map { $1.offset - $0.offset }
        #expect(steps.allSatisfy { $0 == 64 }, "period sizes \(Set(steps))")
        let frames = Double(recording.periods.last!.frameTime &- recording.periods.first!.frameTime)
        let seconds = Double(take.periodMicroseconds.last! - take.periodMicroseconds.first!) / 1e6
        #expect(abs(frames / seconds - rate) < 0.001 * rate, "frame clock: \(frames / seconds) frames a second")
        let gaps = recording.gaps
        print("PipeWire frame clock: \(frames / seconds) frames/s over \(seconds) s, first frame time "
              + "\(recording.firstFrameTime), \(gaps.count) gaps \(gaps.prefix(5).map { "\($0.missingFrames) frames at \($0.offset)" }); "
              + "port latencies: " + startup.latencyLines.joined(separator: "; "))

        // Every period is placed by the frame code on out_3 (input 3 at
        // unity gain): the frame its samples were played at, unambiguous
        // within the take (2^20 frames). The recorder's own frame time is not
        // good enough for that under PipeWire: when the graph runs late,
        // PipeWire runs the recorder after the driver has started the next
        // cycle (jack_get_cycle_times then reads the next cycle's frame), or
        // with crosspoint's buffers of an earlier cycle.
        //
        // out_3's code speaks for out_3 only. PipeWire can run a client while
        // the client upstream is still publishing its cycle, so the ports of
        // one period can come from two cycles, or one can hold no data
        // (silence). That happens between crosspoint and the recorder (the
        // tap sees a port's buffer change while it reads: `changedPorts`) and
        // between the player and crosspoint, which then mixes inputs of two
        // cycles into one period, which no look at the recorder's buffers can
        // see (docs/pipewire.md). So every output is checked against the
        // placement by its own content (`attribute`): a period is left out
        // when a port's content is silence or another cycle's, or when the
        // tap saw a buffer change. Content that fits no cycle stays in and is
        // judged by the checks below. Left-out periods are dropouts.
        let codes = JackTap.decodeFrameCode(recording.channels[2], amplitude: 0.5)
        let modulus = JackTap.Signal.codeModulus
        let channels = recording.channels
        var latencies: [Int: Int] = [:]
        var placed: [(frame: UInt32, range: Range<Int>, latency: Int, out2Silent: Bool)] = []
        var torn = 0, uncoded = 0, silent1 = 0, elsewhere1 = 0, elsewhere2 = 0
        for position in recording.periods.indices {
            let range = recording.periods[position].offset..<(position + 1 < recording.periods.count
                ? recording.periods[position + 1].offset : recording.frameCount)
            if take.changedPorts[position] != 0 {
                torn += 1
                continue
            }
            guard let first = codes[range.lowerBound],
                  range.allSatisfy({ codes[$0] == (first + $0 - range.lowerBound) % modulus }) else {
                uncoded += 1
                continue
            }
            // The recorder's frame time less the frame the code says.
            var latency = (Int(recording.periods[position].frameTime % UInt32(modulus)) - first + modulus) % modulus
            if latency > modulus / 2 { latency -= modulus }
            let frame = recording.periods[position].frameTime &- UInt32(bitPattern: Int32(latency))
            switch Self.attribute(channels[0][range], to: frame, as: Self.signals[0], sampleRate: recording.sampleRate) {
            case .silent: silent1 += 1; continue
            case .otherCycle: elsewhere1 += 1; continue
            case .thisCycle, .unknown: break
            }
            let out2 = Self.attribute(channels[1][range], to: frame, as: Self.signals[1], sampleRate: recording.sampleRate)
            if case .otherCycle = out2 {
                elsewhere2 += 1
                continue
            }
            latencies[latency, default: 0] += 1
            placed.append((frame, range, latency, out2 == .silent))
        }
        // out_2 falls silent for good once the timed bundle has cut it; a
        // silent period before its last coded one is a dropout.
        let lastCoded2 = placed.filter { !$0.out2Silent }.map(\.frame).max { Int32(bitPattern: $0 &- $1) < 0 }
        let silent2 = placed.filter { period in
            period.out2Silent && lastCoded2.map { Int32(bitPattern: period.frame &- $0) < 0 } ?? false
        }.count
        placed.removeAll { period in
            period.out2Silent && lastCoded2.map { Int32(bitPattern: period.frame &- $0) < 0 } ?? false
        }
        let latency = try #require(latencies.max { $0.value < $1.value }?.key, "out_3 carries no frame code")
        #expect(latency == 0, "crosspoint's output for frame t is recorded at frame t + \(latency)")

        // The placed periods in frame order, each frame once, as one series
        // per output: `frameOf[i]` is the frame sample i of `out1` and `out2`
        // was played at. A cycle recorded twice must read the same both times.
        let origin = try #require(placed.first?.frame)
        func relative(_ frame: UInt32) -> Int { Int(Int32(bitPattern: frame &- origin)) }
        placed.sort { relative($0.frame) < relative($1.frame) }
        var frameOf: [UInt32] = [], out1: [Float] = [], out2: [Float] = [], out3: [Float] = []
        var repeated = 0, conflicting: [UInt32] = []
        for period in placed {
            // Frames of this period the series already holds: compare them.
            let overlap = frameOf.last.map { min(period.range.count, relative($0) - relative(period.frame) + 1) } ?? 0
            if overlap > 0 {
                repeated += 1
                let tail = frameOf.count - (relative(frameOf.last!) - relative(period.frame) + 1)
                for k in 0..<overlap where out1[tail + k] != channels[0][period.range.lowerBound + k]
                    || out2[tail + k] != channels[1][period.range.lowerBound + k]
                    || out3[tail + k] != channels[2][period.range.lowerBound + k] {
                    conflicting.append(period.frame &+ UInt32(k))
                }
            }
            for k in max(overlap, 0)..<period.range.count {
                frameOf.append(period.frame &+ UInt32(k))
                out1.append(channels[0][period.range.lowerBound + k])
                out2.append(channels[1][period.range.lowerBound + k])
                out3.append(channels[2][period.range.lowerBound + k])
            }
        }
        #expect(conflicting.isEmpty, "frames recorded twice, differently: \(conflicting.prefix(10))")
        // Stretches of the series whose frames follow one another; the cycles
        // missing between them are the dropouts.
        var runs: [Range<Int>] = []
        var runStart = 0
        for index in 1...frameOf.count where index == frameOf.count || frameOf[index] != frameOf[index - 1] &+ 1 {
            runs.append(runStart..<index)
            runStart = index
        }
        let periodSize = Self.periodSize
        let spanPeriods = (relative(frameOf.last!) - relative(frameOf.first!) + 1 + periodSize - 1) / periodSize
        let missingPeriods = spanPeriods - frameOf.count / periodSize
        let displaced = latencies.filter { $0.key != latency }.values.reduce(0, +)
        let unusable = torn + uncoded + silent1 + elsewhere1 + silent2 + elsewhere2
        print("PipeWire latency through crosspoint: \(latency) frames (\(latencies) frames: periods); "
              + "\(recording.periods.count) periods recorded, \(unusable) left out: \(torn) read while crosspoint published, "
              + "\(uncoded) without a code on out_3, out_1 silent in \(silent1) and another cycle's in \(elsewhere1), "
              + "out_2 silent in \(silent2) and another cycle's in \(elsewhere2); \(displaced) placed in a cycle other than the "
              + "recorder's, \(repeated) recorded twice; \(missingPeriods) of \(spanPeriods) cycles missing (\(runs.count - 1) dropouts)")
        guard Double(unusable) <= Self.maximumDropoutShare * Double(recording.periods.count),
              Double(missingPeriods) <= Self.maximumMissingShare * Double(spanPeriods) else {
            throw UnusableTake(description: "\(unusable) of \(recording.periods.count) periods unusable "
                               + "(at most \(Self.maximumDropoutShare) allowed), \(missingPeriods) of \(spanPeriods) "
                               + "cycles missing (at most \(Self.maximumMissingShare))")
        }

        // Input 1 at unity gain, then at 0.5 after a ramp of the smoothing time.
        let sine = Self.signals[0]
        var gains: [(frame: UInt32, gain: Double)] = []
        for index in out1.indices {
            let reference = sine.expected(frameTime: frameOf[index], sampleRate: recording.sampleRate)
            if abs(reference) >= Self.amplitude / 2 { gains.append((frameOf[index], Double(out1[index]) / reference)) }
        }
        // Float rounding moves the ratio by about 1e-7; the ramp's first and
        // last samples move it by about 7e-4.
        let rampStart = try #require(gains.firstIndex { $0.gain < 1 - 1e-5 }, "out_1 never changed")
        let rampEnd = try #require(gains[rampStart...].firstIndex { $0.gain < 0.5 + 1e-5 }, "out_1 never reached 0.5")
        let before = gains[..<rampStart].map(\.gain), after = gains[rampEnd...].map(\.gain)
        try #require(before.count > 4_800 && after.count > 4_800, "\(before.count) samples before, \(after.count) after")
        #expect(before.allSatisfy { abs($0 - 1) < 1e-5 }, "gain before the change: \(before.min()!)…\(before.max()!)")
        #expect(after.allSatisfy { abs($0 - 0.5) < 1e-5 }, "gain after the change: \(after.min()!)…\(after.max()!)")
        // Where the ramp began and ended, as far as the series tells: after
        // the last sample at unity gain, at the latest at the first below it;
        // likewise for the end. Samples near the reference's zero crossings
        // are left out (up to 8 frames between two samples), and cycles
        // missing from the series widen these brackets.
        let seriesFrames = frameOf.map(relative)
        func firstSample(atOrAfter frame: Int) -> Int {
            var (low, high) = (0, seriesFrames.count)
            while low < high {
                let middle = (low + high) / 2
                if seriesFrames[middle] < frame { low = middle + 1 } else { high = middle }
            }
            return low
        }
        /// Cycles of frames `start..<end` that the series lacks.
        func missingCycles(_ start: Int, _ end: Int) -> Int {
            guard end > start else { return 0 }
            let present = firstSample(atOrAfter: end) - firstSample(atOrAfter: start)
            return (end - start - present + periodSize - 1) / periodSize
        }
        let startEarliest = relative(gains[rampStart - 1].frame) + 1, startLatest = relative(gains[rampStart].frame)
        let endEarliest = relative(gains[rampEnd - 1].frame) + 1, endLatest = relative(gains[rampEnd].frame)
        // crosspoint's ramp moves on with each period it processes. A cycle
        // that PipeWire skips (no client runs in it) leaves the ramp where it
        // was, so by the frame clock the ramp ends a period later (measured
        // once: 21.33 ms with no cycle missing at either end). Such a cycle is
        // missing from the series, but so is one that only the recorder
        // missed, so every cycle missing inside the ramp may have been skipped.
        let rampFrames = Int(Self.smoothingMilliseconds / 1000 * rate)
        let shortest = endEarliest - startLatest - missingCycles(startLatest, endEarliest) * periodSize
        let longest = endLatest - startEarliest
        // The thresholds above find the ramp's ends within a few samples.
        let rampTolerance = Int(0.2 / 1000 * rate)
        let rampMilliseconds = (Double(shortest) / rate * 1000, Double(longest) / rate * 1000)
        #expect(shortest <= rampFrames + rampTolerance && longest >= rampFrames - rampTolerance,
                "the ramp took \(rampMilliseconds.0)…\(rampMilliseconds.1) ms")
        // The ramp is even in fader position: halfway, position 0.675 is −3 dB.
        // Halfway lies half the ramp after its start, plus any cycles
        // skipped before it.
        let earliestHalfway = startEarliest + rampFrames / 2
        var latestHalfway = startLatest + rampFrames / 2
        for _ in 0..<spanPeriods {
            let next = startLatest + rampFrames / 2 + missingCycles(startLatest, latestHalfway) * periodSize
            if next == latestHalfway { break }
            latestHalfway = next
        }
        // The gain falls through the ramp (checked below), so the gain
        // halfway is at most that of the last sample up to the earliest
        // halfway point, and at least that of the first sample from the
        // latest one on: those two must not rule out −3 dB.
        let upToHalfway = try #require(gains.last { relative($0.frame) <= earliestHalfway })
        let fromHalfway = try #require(gains.first { relative($0.frame) >= latestHalfway })
        #expect(upToHalfway.gain > 0.7071 - 0.03 && fromHalfway.gain < 0.7071 + 0.03,
                "gain halfway through the ramp: \(upToHalfway.gain) at frame \(upToHalfway.frame), \(fromHalfway.gain) at frame \(fromHalfway.frame)")
        let ramp = gains[rampStart...rampEnd].map(\.gain)
        #expect(zip(ramp, ramp.dropFirst()).allSatisfy { $1 <= $0 + 1e-5 }, "the gain rises during the ramp")
        let maximumStep = A.maximumSineStep(frequency: Self.frequency, amplitude: Float(Self.amplitude), sampleRate: rate)
        let runSteps = runs.map { A.maxAbsoluteStep(out1, in: $0) }
        #expect(runSteps.allSatisfy { $0 <= maximumStep * 1.01 }, "click on out_1: step \(runSteps.max() ?? 0), limit \(maximumStep)")

        // The change began after it was sent, and soon.
        let sentFrame = try #require(take.frameTime(atJackMicroseconds: startup.jackMicroseconds(atUnixTime: changeSent)))
        let changeDelay = (Double(gains[rampStart].frame) - sentFrame) / rate * 1000
        #expect(changeDelay > -1.5 && changeDelay < 50, "the change began \(changeDelay) ms after it was sent")

        // The timed bundle: /matrix/2/2 0 0 at its time, by the frame clock.
        // Until then out_2 is input 2's code, bit for bit.
        let code2 = Self.signals[1]
        let cut = try #require(out2.indices.first { out2[$0] != Float(code2.expected(frameTime: frameOf[$0], sampleRate: recording.sampleRate)) },
                               "out_2 never changed")
        try #require(cut > 0, "out_2 changed at the start")
        try #require(out2[cut...].contains(0), "out_2 never reached 0")
        // Without a fade, crosspoint still ramps over one period (64
        // samples) against a click: the code before, 0 from a period after.
        let fall = out2.indices[cut...].last { out2[$0] != 0 }.map { relative(frameOf[$0]) - relative(frameOf[cut]) + 1 } ?? 0
        #expect(fall <= 64, "out_2 took \(fall) frames to fall (or rose again)")
        // The change happened after the last unchanged sample and at the
        // first changed one (the frames follow one another unless a dropout
        // lies between).
        let cutFrame = frameOf[cut], highFrame = frameOf[cut - 1]
        let dueFrame = try #require(take.frameTime(atJackMicroseconds: startup.jackMicroseconds(atUnixTime: bundleDue)))
        // For the record: a period PipeWire ran late shows here as a latency
        // of one period (jack_get_cycle_times read the next cycle's frame).
        let cutPeriodLatency = placed.first {
            (0..<$0.range.count).contains(relative(cutFrame) - relative($0.frame))
        }?.latency
        let early = (Double(highFrame) + 1 - dueFrame) / rate * 1000, late = (Double(cutFrame) - dueFrame) / rate * 1000
        let error = late < 0 ? late : early > 0 ? early : 0
        print(String(format: "PipeWire: crosspoint change %.2f ms after sending, ramp %.2f to %.2f ms, gain %.4f to %.4f "
                     + "around halfway; timed bundle %.3f ms from its time (between %.3f and %.3f; tolerance %.3f ms)",
                     changeDelay, rampMilliseconds.0, rampMilliseconds.1, upToHalfway.gain, fromHalfway.gain, error, early,
                     late, Self.timedBundleToleranceMilliseconds))
        #expect(abs(error) <= Self.timedBundleToleranceMilliseconds,
                "the timed bundle took effect \(early)…\(late) ms from its time (frame \(cutFrame), due \(dueFrame)); the recorder's frame time for the period holding the cut: \(cutPeriodLatency ?? 0) frames past its code")
    }
}
