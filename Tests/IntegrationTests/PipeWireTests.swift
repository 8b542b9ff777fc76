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
    /// the frame clock, in milliseconds. Today's scheduler (RigControl's
    /// `BundleScheduler`) releases a bundle so that it applies at the start
    /// of the period that holds its frame: up to one period (1.33 ms at 64
    /// frames) early. On top of that come the two mappings of Unix time to
    /// JACK time (crosspoint's, and the tap's that the test uses), each
    /// good to some tens of microseconds. Once bundles are sample-accurate,
    /// this becomes a few samples.
    /// One frame at 48 kHz: timed bundles apply at their frame.
    static let timedBundleToleranceMilliseconds = 1000.0 / 48_000

    /// The smoothing ramp of a crosspoint change without a fade time
    /// (`crosspoint serve --smoothing-ms`, default 20).
    static let smoothingMilliseconds = 20.0

    /// At most this share of the recorded periods may show a dropout (see
    /// `check`): an xrun. PipeWire's data threads run SCHED_FIFO here (as
    /// root, module-rt), but PipeWire does not wait for a late client the
    /// way `jackd -S` does, and the 2-core machine is shared with builds:
    /// measured 0 to 5 periods of 1,500 in 2 s. Counted, reported, and
    /// bounded loosely (a graph that does not carry audio fails all the
    /// same, on every check).
    static let maximumDropoutShare = 0.05

    static let frequency = 1_000.0, amplitude = 0.5
    /// Input 1: a sine for the gain; input 2: a constant for the timed
    /// bundle; input 3: the frame clock as a code, for the latency.
    static let signals: [JackTap.Signal] = [.sine(frequency, amplitude), .dc(0.5), .code(0.5)]

    @Test("Under PipeWire's JACK: a tone at unity gain, a crosspoint change with its ramp, a timed bundle on time")
    func crosspointUnderPipeWire() async throws {
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
                executable: tapExecutable, name: "xp_tap", seconds: 2.0, play: Self.signals, record: 3,
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
            let tagUnixTime = Double(tag.seconds) - 2_208_988_800 + Double(tag.fraction) / 4_294_967_296

            try check(take, startup: startup, changeSent: changeSent, bundleDue: tagUnixTime)
        } catch {
            Issue.record("\(error)\n\(diagnostics())")
            throw error
        }
    }

    /// The links in `pw-link --links` output, as "OUT -> IN": it lists each
    /// port on a line of its own, followed by its links ("  |-> IN" for an
    /// output, "  |<- OUT" for an input).
    static func outputLinks(_ listing: String) -> Set<String> {
        var port = "", found: Set<String> = []
        for line in listing.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("|-> ") {
                found.insert("\(port) -> \(text.dropFirst(4))")
            } else if text.hasPrefix("|<- ") {
                found.insert("\(text.dropFirst(4)) -> \(port)")
            } else if !line.hasPrefix(" ") {
                port = text
            }
        }
        return found
    }

    /// The numeric checks on the take.
    private func check(_ take: JackTap.Take, startup: JackTap.Startup, changeSent: Double, bundleDue: Double) throws {
        let recording = take.recording
        let rate = Double(recording.sampleRate)
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

        // Latency through crosspoint, from the frame code on input 3: the
        // frame time each recorded sample was played at. A sample that
        // carries no code, or another latency, belongs to a dropout: a cycle
        // in which some client of the chain did not deliver (PipeWire does
        // not wait for a late client as `jackd -S` does). Those samples are
        // left out of the checks below, and there must be few.
        let codes = JackTap.decodeFrameCode(recording.channels[2], amplitude: 0.5)
        var latencies: [Int: Int] = [:]
        var latencyOfSample = [Int?](repeating: nil, count: recording.frameCount)
        for (index, code) in codes.enumerated() {
            guard let code, let frame = recording.frameTime(ofSample: index) else { continue }
            let latency = (Int(frame % 1024) - code + 1024) % 1024
            latencies[latency, default: 0] += 1
            latencyOfSample[index] = latency
        }
        let latency = try #require(latencies.max { $0.value < $1.value }?.key, "out_3 carries no frame code")
        let valid = latencyOfSample.map { $0 == latency }
        // A period with a dropout: after a gap in the frame clock (cycles
        // the recorder missed), or with samples of no code or another latency.
        let gapOffsets = Set(gaps.map(\.offset))
        let dropoutPeriods = recording.periods.indices.filter { position in
            let start = recording.periods[position].offset
            let end = position + 1 < recording.periods.count ? recording.periods[position + 1].offset : recording.frameCount
            return gapOffsets.contains(start) || !valid[start..<end].allSatisfy { $0 }
        }
        print("PipeWire latency through crosspoint: \(latency) frames (\(latencies) frames: samples); "
              + "\(dropoutPeriods.count) of \(recording.periods.count) periods with a dropout "
              + "(at samples \(dropoutPeriods.prefix(10).map { recording.periods[$0].offset }))")
        #expect(latency == 0, "crosspoint's output for frame t is recorded at frame t + \(latency)")
        #expect(Double(dropoutPeriods.count) <= Self.maximumDropoutShare * Double(recording.periods.count),
                "\(dropoutPeriods.count) of \(recording.periods.count) periods with a dropout")
        // Stretches of valid samples whose frame times follow one another.
        var runs: [Range<Int>] = []
        var runStart: Int?
        for index in 0...recording.frameCount {
            let continues = index < recording.frameCount && valid[index] && (runStart == nil
                || recording.frameTime(ofSample: index) == recording.frameTime(ofSample: index - 1).map { $0 &+ 1 })
            if continues, runStart == nil { runStart = index }
            if !continues, let start = runStart {
                runs.append(start..<index)
                runStart = index < recording.frameCount && valid[index] ? index : nil
            }
        }

        // Input 1 at unity gain, then at 0.5 after a ramp of the smoothing time.
        let sine = Self.signals[0]
        let out1 = recording.channels[0]
        var gains: [(index: Int, frame: UInt32, gain: Double)] = []
        for index in out1.indices where valid[index] {
            guard let frame = recording.frameTime(ofSample: index) else { continue }
            let reference = sine.expected(frameTime: frame &- UInt32(latency), sampleRate: recording.sampleRate)
            if abs(reference) >= Self.amplitude / 2 { gains.append((index, frame, Double(out1[index]) / reference)) }
        }
        // Float rounding moves the ratio by about 1e-7; the ramp's first and
        // last samples move it by about 7e-4.
        let rampStart = try #require(gains.firstIndex { $0.gain < 1 - 1e-5 }, "out_1 never changed")
        let rampEnd = try #require(gains[rampStart...].firstIndex { $0.gain < 0.5 + 1e-5 }, "out_1 never reached 0.5")
        let before = gains[..<rampStart].map(\.gain), after = gains[rampEnd...].map(\.gain)
        try #require(before.count > 4_800 && after.count > 4_800, "\(before.count) samples before, \(after.count) after")
        #expect(before.allSatisfy { abs($0 - 1) < 1e-5 }, "gain before the change: \(before.min()!)…\(before.max()!)")
        #expect(after.allSatisfy { abs($0 - 0.5) < 1e-5 }, "gain after the change: \(after.min()!)…\(after.max()!)")
        let rampMilliseconds = Double(gains[rampEnd].frame &- gains[rampStart].frame) / rate * 1000
        // Samples near the reference's zero crossings are left out (up to
        // 1/6 of a 1 kHz cycle, 0.17 ms), and a dropout may hide a period
        // (1.33 ms) at either end.
        #expect(abs(rampMilliseconds - Self.smoothingMilliseconds) < 1.7, "the ramp took \(rampMilliseconds) ms")
        // The ramp is even in fader position: halfway, position 0.675 is −3 dB.
        let halfway = gains[rampStart].frame &+ UInt32(Self.smoothingMilliseconds / 2000 * rate)
        func distance(_ frame: UInt32) -> Int { abs(Int(Int32(bitPattern: frame &- halfway))) }
        let middle = try #require(gains.min { distance($0.frame) < distance($1.frame) })
        #expect(abs(middle.gain - 0.7071) < 0.03, "gain halfway through the ramp: \(middle.gain)")
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
        let out2 = recording.channels[1]
        let cut = try #require(out2.indices.first { valid[$0] && out2[$0] < 0.5 }, "out_2 never changed")
        let lastHigh = try #require(out2.indices[..<cut].last { valid[$0] }, "out_2 changed at the start")
        // Without a fade, crosspoint still ramps over one period (64
        // samples) against a click: 0.5 before, 0 from a period after.
        let settled = try #require(out2.indices[cut...].first { valid[$0] && out2[$0] == 0 }, "out_2 never reached 0")
        let fall = Int(try #require(recording.frameTime(ofSample: settled)) &- recording.frameTime(ofSample: cut)!)
        #expect(fall <= 64, "out_2 took \(fall) frames to fall")
        #expect(out2.indices.allSatisfy { !valid[$0] || $0 >= cut || out2[$0] == 0.5 }, "out_2 was 0.5 before")
        #expect(out2.indices.allSatisfy { !valid[$0] || $0 < settled || out2[$0] == 0 }, "out_2 stayed 0 after")
        // The change happened after the last valid 0.5 and at the first
        // valid 0 (the same sample unless a dropout lies between).
        let cutFrame = try #require(recording.frameTime(ofSample: cut)) &- UInt32(latency)
        let highFrame = try #require(recording.frameTime(ofSample: lastHigh)) &- UInt32(latency)
        let dueFrame = try #require(take.frameTime(atJackMicroseconds: startup.jackMicroseconds(atUnixTime: bundleDue)))
        let early = (Double(highFrame) + 1 - dueFrame) / rate * 1000, late = (Double(cutFrame) - dueFrame) / rate * 1000
        let error = late < 0 ? late : early > 0 ? early : 0
        print(String(format: "PipeWire: crosspoint change %.2f ms after sending, ramp %.2f ms, midway gain %.4f; "
                     + "timed bundle %.3f ms from its time (between %.3f and %.3f; tolerance %.1f ms)",
                     changeDelay, rampMilliseconds, middle.gain, error, early, late, Self.timedBundleToleranceMilliseconds))
        #expect(abs(error) <= Self.timedBundleToleranceMilliseconds,
                "the timed bundle took effect \(early)…\(late) ms from its time (frame \(cutFrame), due \(dueFrame))")
    }
}
}
