#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The real `crosspoint serve` as a client of PipeWire's JACK: a private,
/// headless `pipewire` daemon (no session manager), crosspoint under
/// `pw-jack`, and `tools/jack-tap` (also under `pw-jack`) playing into its
/// inputs and recording its outputs from real ports. The in-process
/// ``JackProbe`` cannot take part: it is linked with jackd2's libjack.
///
/// PipeWire must be installed (scripts/setup does it): without it this test
/// fails, saying so, rather than skipping.
extension Integration {
@Suite struct PipeWireTests {
    typealias A = SignalAnalysis

    /// How far from its time tag a timed bundle may take effect, measured on
    /// the frame clock, in milliseconds: one frame at 48 kHz. Timed bundles
    /// apply at their JACK frame inside the period; what remains are the two
    /// mappings of Unix time to JACK time (crosspoint's, and the tap's that
    /// the test uses), measured 0.000 to 0.011 ms apart.
    static let timedBundleToleranceMilliseconds = 1000.0 / 48_000

    /// The smoothing ramp of a crosspoint change without a fade time
    /// (`crosspoint serve --smoothing-ms`, default 20).
    static let smoothingMilliseconds = 20.0

    /// At most this share of the recorded periods may be unusable (see
    /// `check`): silence or no code on out_3, or read while crosspoint
    /// published its next cycle. PipeWire's data threads run SCHED_FIFO here
    /// (as root, module-rt), but PipeWire does not wait for a late client the
    /// way `jackd -S` does, and the 2-core machine is shared with builds:
    /// measured 0 to 45 of 1,400 to 1,500 periods in 2 s (docs/pipewire.md).
    /// Counted, reported, and bounded loosely (a graph that does not carry
    /// audio fails all the same, on every check).
    static let maximumDropoutShare = 0.05

    /// At most this share of the cycles of the take may be missing from the
    /// series the checks use: unusable periods, and cycles the recorder never
    /// ran in (gaps in its frame clock; the kernel here does not preempt
    /// itself, so heavy I/O delays even SCHED_FIFO threads). Measured up to
    /// 233 of 1,501 (16 %) under fresh package checkouts beside a build;
    /// 0 to 13 beside a build alone.
    static let maximumMissingShare = 0.25

    static let frequency = 1_000.0, amplitude = 0.5
    /// Input 1: a sine for the gain; input 2: the frame clock as a code, for
    /// the timed bundle (at unity gain until it cuts, each sample tells its
    /// frame); input 3: the frame clock as a code, for the latency and to
    /// place every period.
    static let signals: [JackTap.Signal] = [.sine(frequency, amplitude), .code(0.5), .code(0.5)]
    static let periodSize = 64

    /// How many takes the test makes before it gives up on a machine too
    /// busy to record a usable one.
    static let takes = 3

    /// A take the machine spoiled: too many periods unusable or cycles
    /// missing to judge crosspoint by (a busy 2-core machine, not a fault of
    /// crosspoint's; a graph that carries no audio fails every check).
    struct UnusableTake: Error, CustomStringConvertible {
        let description: String
    }

    @Test("Under PipeWire's JACK: a tone at unity gain, a crosspoint change with its ramp, a timed bundle on time")
    func crosspointUnderPipeWire() async throws {
        for take in 1...Self.takes {
            do {
                try await recordAndCheck()
                return
            } catch let unusable as UnusableTake where take < Self.takes {
                print("PipeWire: take \(take) of \(Self.takes) unusable, taken again: \(unusable)")
            }
        }
    }

    /// One take, from a fresh PipeWire daemon to the numeric checks.
    private func recordAndCheck() async throws {
        let pipewire = try await PipeWireServer.start(quantum: 64, sampleRate: 48_000)
        defer { pipewire.stop() }
        let directory = try CrosspointRig.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tapExecutable = try await JackTap.build(in: directory)

        let serve = try pipewire.run(
            CrosspointRig.binary,
            arguments: ["serve", "--no-autostart", "--osc-port", "0", "--http-port", "0", "--inputs", "3", "--outputs", "3"]
                + CrosspointRig.fileArguments(directory),
            label: "pw-jack crosspoint serve")
        defer { serve.terminate() }
        var tap: JackTap?
        defer { tap?.process.terminate() }
        func diagnostics() -> String {
            "\(serve.diagnostics())\n\(tap?.process.diagnostics() ?? "")\n\(pipewire.diagnostics)"
        }

        do {
            let port = try await CrosspointRig.oscPort(of: serve)
            let osc = try OSCTestClient(target: .init(host: "127.0.0.1", port: port))
            defer { osc.close() }

            // The quantum PIPEWIRE_LATENCY asks for is crosspoint's period.
            try osc.send("/status")
            #expect(try await osc.waitFor(address: "/status/sample_rate").arguments == [.int32(48_000)])
            #expect(try await osc.waitFor(address: "/status/buffer_size").arguments == [.int32(64)])

            // Nothing links ports without a session manager.
            let linksBefore = try await pipewire.tool("pw-link", ["--links"])
            #expect(!linksBefore.contains("crosspoint:"), "links before the tap connected:\n\(linksBefore)")

            var connections = (1...3).map { ("xp_tap_play:out_\($0)", "crosspoint:in_\($0)") }
            connections += (1...3).map { ("crosspoint:out_\($0)", "xp_tap_rec:in_\($0)") }
            let started = try JackTap.start(
                executable: tapExecutable, name: "xp_tap", seconds: 3.0, play: Self.signals, record: 3,
                connections: connections, output: directory.appendingPathComponent("take.bin")) {
                    try pipewire.run($0, arguments: $1, label: "pw-jack jack-tap")
                }
            tap = started
            let startup = try await started.waitUntilRecording()
            #expect(startup.sampleRate == 48_000 && startup.periodSize == 64, "\(startup)")
            let links = try await pipewire.tool("pw-link", ["--links"])
            let linked = Self.outputLinks(links)
            for (source, destination) in connections {
                #expect(linked.contains("\(source) -> \(destination)"), "no link \(source) → \(destination):\n\(links)")
            }

            // For the record: which threads run real-time (FF: SCHED_FIFO).
            let ps = try ChildProcess(executable: "ps", arguments: [
                "-L", "-o", "pid=,cls=,rtprio=,comm=", "-p", "\(pipewire.process.pid),\(serve.pid),\(started.process.pid)"])
            if try await ps.waitForExit() == .exited(0) {
                let realtime = ps.standardOutput.split(separator: "\n").filter { $0.contains(" FF ") || $0.contains(" RR ") }
                print("PipeWire: real-time threads of pipewire, crosspoint and jack-tap:\n" + realtime.joined(separator: "\n"))
            }

            // A crosspoint change at about 0.3 s, a bundle timed 0.3 s ahead at about 0.6 s.
            try await Task.sleep(for: .milliseconds(300))
            let changeSent = Date().timeIntervalSince1970
            try osc.send("/matrix/1/1", .float(0.5))
            try osc.send("/ping")
            _ = try await osc.waitFor(address: "/pong", timeout: .seconds(5))
            try await Task.sleep(for: .milliseconds(300))
            let tag = OSCTestClient.TimeTag.fromNow(0.3)
            try osc.sendBundle([.init("/matrix/2/2", arguments: [.float(0), .float(0)])], timeTag: tag)
            let take = try await started.finish()
            // CROSSPOINT_KEEP_TAKES=DIR keeps every take for study (format: tools/jack-tap/jack_tap.c).
            if let keep = ProcessInfo.processInfo.environment["CROSSPOINT_KEEP_TAKES"] {
                let copy = URL(fileURLWithPath: keep).appendingPathComponent("pipewire-take-\(Int(Date().timeIntervalSince1970 * 1000)).bin")
                try? FileManager.default.copyItem(at: directory.appendingPathComponent("take.bin"), to: copy)
                print("PipeWire: take kept at \(copy.path)")
            }
            let tagUnixTime = Double(tag.seconds) - 2_208_988_800 + Double(tag.fraction) / 4_294_967_296

            try check(take, startup: startup, changeSent: changeSent, bundleDue: tagUnixTime)
        } catch let unusable as UnusableTake {
            throw unusable
        } catch {
            Issue.record("\(error)\n\(diagnostics())")
            throw error
        }
    }

    /// The numeric checks on the take.
    private func check(_ take: JackTap.Take, startup: JackTap.Startup, changeSent: Double, bundleDue: Double) throws {
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
}
