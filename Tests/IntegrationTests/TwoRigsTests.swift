import Foundation
import Synchronization
import Testing

extension Integration {
/// Two rigs, one show (issue 26): rig A's outputs reach rig B's inputs
/// through JACK's own network engines, between two network namespaces
/// joined by a veth pair (``LinkedNamespaces``), each with its own `jackd`
/// and the real `crosspoint serve`.
///
/// A ``JackTap`` on server A plays a 1 kHz tone and its frame clock as a
/// staircase (``JackTap/Signal/code(_:)``) into rig A, which sends them
/// to the link; a tap on server B records what rig B puts out. Two taps,
/// each a process of its own: libjack (jackd2) serves one server per
/// process (a second client in the same process, opened on another
/// server, sees the first server's graph), so the in-process ``JackProbe``
/// can join only one of the two. ``LinkMeasurement`` places every period
/// B heard in A's time: the latency the link adds, its constancy, and
/// every break in the audio.
///
/// Figures, commands and what a dropped link does: docs/scaling.md.
@Suite(.enabled(if: LinkedNamespaces.isAvailable,
                "needs two network namespaces joined by a veth pair (root, unshare, nsenter, ip); the reason is noted on stderr"))
struct TwoRigsTests {
    typealias Side = LinkedNamespaces.Side

    enum Engine: String, Sendable, CustomTestStringConvertible {
        case zita = "zita-njbridge"
        case netjack2
        var testDescription: String { rawValue }
    }

    /// How far the two servers' clocks may stray (``LinkMeasurement/clockWander(played:heard:)``)
    /// for zita-njbridge to be held to a clean link.
    static let steadyClocks = 0.002

    /// The tone and the code, as tap A plays them.
    static let toneFrequency = 1000.0
    static let toneAmplitude = 0.25
    static let codeAmplitude = 0.5

    func withShow(_ engine: Engine, synchronous: Bool = true,
                  _ body: (Show) async throws -> Void) async throws {
        let show = try await Show.start(engine, synchronous: synchronous)
        defer { show.stop() }
        do {
            try await body(show)
        } catch {
            Issue.record("\(error)\n\(show.diagnostics)")
            throw error
        }
    }

    /// The tone B heard over `run`: its frequency, and its level against
    /// what A played, in dB.
    static func tone(_ link: LinkMeasurement, in run: Range<Int>) -> (frequency: Double?, level: Double) {
        let samples = link.heard.channels[0]
        let frequency = LinkMeasurement.frequency(of: samples, in: run, sampleRate: link.sampleRate)
        let amplitude = Double(SignalAnalysis.rms(samples, in: run)) * 2.0.squareRoot()
        return (frequency, 20 * log10(amplitude / toneAmplitude))
    }

    static func note(_ text: String) {
        FileHandle.standardError.write(Data("note: two rigs: \(text)\n".utf8))
    }

    static func milliseconds(_ seconds: Double?) -> String {
        seconds.map { String(format: "%.2f ms", $0 * 1000) } ?? "none"
    }

    // MARK: Audio across the link

    /// zita-njbridge for a minute: the tone at its frequency and level,
    /// the latency (zita-n2j's buffer, held by its resampler's control
    /// loop) steady second after second, and every break counted.
    ///
    /// A resampler follows two clocks that differ by parts per million and
    /// change slowly. The `dummy` backend's clocks do that only while the
    /// machine keeps up with both servers; under other work they stray by
    /// a few per cent for seconds (``LinkMeasurement/clockWander(_:window:span:)``),
    /// zita-n2j's loop cannot follow, its buffer runs dry and it waits 10 s
    /// before it starts again. So the strict checks (a minute without a
    /// break, the latency within 5 ms from second to second, the tone
    /// within 1 Hz) apply when both servers run real-time and neither
    /// clock strayed by more than 0.2 % (a clean minute here strayed
    /// 0.14 %, a broken one 0.6 %); otherwise a note says so, and the test
    /// holds the link to what it did carry: the tone right over its
    /// longest unbroken run (at least a second of it; 5 s on steady clocks).
    @Test func zitaNjbridgeCarriesAToneForAMinute() async throws {
        try await withShow(.zita) { show in
            let (played, heard) = try await show.startTaps(seconds: 60)
            _ = try await heard.waitUntilRecording()
            let (playedTake, heardTake) = (try await played.finish(), try await heard.finish())
            let link = LinkMeasurement(played: playedTake, heard: heardTake, codeChannel: 2, amplitude: Self.codeAmplitude)
            // A resampler moves the code by the ratio it runs at: a period
            // of 64 frames carries 64 × (1 ± a few thousandths).
            let tolerance = 1.5
            let steady = link.steady(after: 1)
            let breaks = link.breaks(in: steady, tolerance: tolerance)
            let medians = link.latencyMedians(in: steady)
            let run = link.longestRun(in: steady, tolerance: tolerance)
            let (frequency, level) = Self.tone(link, in: run)
            let latency = link.latency(in: steady)
            let wander = LinkMeasurement.clockWander(played: playedTake, heard: heardTake)
            let seconds = Double(run.count) / Double(link.sampleRate)
            Self.note("zita-njbridge: latency \(Self.milliseconds(latency)) (\(latency.map { String(format: "%.0f", $0 * Double(link.sampleRate)) } ?? "?") frames) median, 1-s medians \(Self.milliseconds(medians.min()))…\(Self.milliseconds(medians.max())) over \(medians.count) s with code; tone \(frequency.map { String(format: "%.3f Hz", $0) } ?? "none") at \(String(format: "%+.3f dB", level)) over the longest unbroken run, \(String(format: "%.1f s", seconds)); \(breaks.count) breaks, the first \(breaks.prefix(3)); the clocks strayed up to \(String(format: "%.3f %%", wander * 100)); B's server skipped \(link.heardGaps.count) times")

            // Clocks that stray by per cents (zita-n2j gives up at 5 %) leave
            // it a second or two between restarts (2.1 s in one CI run, the
            // clocks 4.5 % apart); steady ones, the whole minute (below).
            let carried = wander > Self.steadyClocks ? 1.0 : 5.0
            if wander > 0.02 && seconds < carried {
                // 2 % apart, two dummy clocks are no pair of sound cards:
                // zita-n2j may not lock at all (once here, 4.3 %).
                FileHandle.standardError.write(Data("note: skipped \"zita-njbridge carries a tone for a minute\": the dummy backends' clocks strayed by up to \(String(format: "%.2f %%", wander * 100)) and zita-n2j carried \(String(format: "%.1f s", seconds)) unbroken; zita-njbridge follows clocks that differ by parts per million\n".utf8))
                return
            }
            #expect(seconds >= carried, "at least \(carried) s without a break: \(seconds) s\n\(show.diagnostics)")
            #expect(abs(level) <= 0.5, "level \(level) dB")
            // A resampler that chases a clock plays at the ratio it runs at:
            // within 1 % whatever the clocks do (zita-n2j gives up at 5 %).
            #expect(frequency.map { abs($0 - Self.toneFrequency) < Self.toneFrequency / 100 } == true,
                    "\(String(describing: frequency))")
            // zita-n2j buffers 10 ms by default; with its resampler's delay
            // and a period or two, the latency stays inside 50 ms even
            // while it chases a straying clock.
            #expect(latency.map { $0 > 0.002 && $0 < 0.05 } == true, "latency \(String(describing: latency)) s")
            let check = "a minute over zita-njbridge without a break, at 1 kHz ± 1 Hz"
            if wander > Self.steadyClocks {
                FileHandle.standardError.write(Data("note: skipped \"\(check)\": the dummy backends' clocks strayed by up to \(String(format: "%.2f %%", wander * 100)) (the machine did not keep up with both servers; a resampling link follows clocks that differ by parts per million)\n".utf8))
            } else if show.realtime(check) {
                #expect(frequency.map { abs($0 - Self.toneFrequency) < 1 } == true, "\(String(describing: frequency))")
                #expect(breaks.isEmpty, "\(breaks.count) breaks, the first: \(breaks.prefix(10))")
                #expect(medians.count >= 55, "a minute of code heard: \(medians.count) seconds")
                if let low = medians.min(), let high = medians.max() {
                    #expect(high - low <= 0.005, "1-s medians from \(low) to \(high) s")
                }
            }
        }
    }

    /// netjack2 for 15 s: no resampling and one clock, so the code arrives
    /// bit for bit and the two servers' frame counts keep one difference
    /// (no drift); the tone at exactly its frequency and level. The
    /// slave's JACK time follows its own timer, not the master's, so the
    /// latency is measured in the master's frames instead, round the loop:
    /// rig B sends what it hears back to the master (its `system:playback_`
    /// ports), where tap A records it beside what it played.
    @Test func netjack2CarriesAToneWithoutDrift() async throws {
        try await withShow(.netjack2) { show in
            let returned = "\(Show.slaveName):from_slave_2"
            let (played, heard) = try await show.startTaps(seconds: 15, alsoRecordOnA: [returned])
            _ = try await heard.waitUntilRecording()
            let playedTake = try await played.finish()
            let link = LinkMeasurement(played: playedTake, heard: try await heard.finish(),
                                       codeChannel: 2, amplitude: Self.codeAmplitude)
            let steady = link.steady(after: 0.5)
            let breaks = link.breaks(in: steady, tolerance: 0.01)
            let offsets = link.frameOffsets(in: steady)
            let run = link.longestRun(in: steady, tolerance: 0.01)
            let (frequency, level) = Self.tone(link, in: run)
            let loop = Self.codeDelays(playedTake, channel: 3)
            let latency = link.latency(in: steady)
            Self.note("netjack2: round trip A to B to A \(loop) frames (delay: periods); A-to-B frame offsets \(offsets) (periods); B had it \(Self.milliseconds(latency)) after A (median, by the recorders' callbacks); tone \(frequency.map { String(format: "%.3f Hz", $0) } ?? "none") at \(String(format: "%+.3f dB", level)); \(breaks.count) breaks \(breaks.prefix(5)); B's server skipped \(link.heardGaps.count) times")

            #expect(steady.filter { $0.played != nil }.count * 10 >= steady.count * 9, "code in nine periods in ten")
            #expect(frequency.map { abs($0 - Self.toneFrequency) < 0.1 } == true, "\(String(describing: frequency))")
            #expect(abs(level) <= 0.5, "level \(level) dB")
            // The slave's default network latency (-l 5) is all the loop adds:
            // the way out is the master's own cycle.
            let (commonest, _) = loop.max { $0.value < $1.value } ?? (0, 0)
            #expect(commonest == 5 * Int64(show.servers[.a]!.periodSize), "round trip \(loop)")
            if show.realtime("netjack2 keeps one frame offset") {
                #expect(offsets.count == 1, "the frame offset moved: \(offsets)")
                #expect(loop.count == 1, "the round trip moved: \(loop)")
                #expect(breaks.isEmpty, "\(breaks.count) breaks, the first: \(breaks.prefix(10))")
            }
        }
    }

    /// For a take that recorded tap A's code after a loop back to A: how
    /// many frames after it was played each period heard it, counted per
    /// delay.
    static func codeDelays(_ take: JackTap.Take, channel: Int) -> [Int64: Int] {
        let modulus = Int64(JackTap.Signal.codeModulus)
        let samples = take.recording.channels[channel - 1]
        var delays: [Int64: Int] = [:]
        for period in take.recording.periods where period.offset < samples.count {
            let value = Double(samples[period.offset])
            guard value > codeAmplitude / Double(modulus) / 2 else { continue }
            let played = Int64((value / codeAmplitude * Double(modulus) - 1).rounded())
            let delay = ((Int64(period.frameTime) - played) % modulus + modulus) % modulus
            delays[delay, default: 0] += 1
        }
        return delays
    }

    // MARK: A cut link

    /// Pings both rigs every 300 ms while it runs (each answer waited for
    /// up to 1 s), and keeps the misses.
    final class Pinger: @unchecked Sendable {
        private let rigs: [Rig]
        private let record = Mutex<(sent: Int, missed: [String])>((0, []))
        private var task: Task<Void, Never>?

        init(_ rigs: [Rig]) { self.rigs = rigs }

        func start() {
            let rigs = rigs
            task = Task { [self] in
                while !Task.isCancelled {
                    for rig in rigs {
                        let sent = Date()
                        var answered = false
                        do {
                            _ = try rig.pinger.drain()
                            try rig.pinger.send("/ping")
                            _ = try await rig.pinger.waitFor(address: "/pong", timeout: .seconds(1))
                            answered = true
                        } catch {}
                        record.withLock {
                            $0.sent += 1
                            if !answered { $0.missed.append("rig \(rig.side) at \(sent.timeIntervalSince1970)") }
                        }
                    }
                    try? await Task.sleep(for: .milliseconds(300))
                }
            }
        }

        func stop() async -> (sent: Int, missed: [String]) {
            task?.cancel()
            await task?.value
            return record.withLock { $0 }
        }
    }

    /// The same cut with netjack2 (its own test, so that a filter can pick it).
    @Test
    func aNetjack2LinkCutComesBack() async throws {
        try await aLinkCutForFiveSecondsComesBack(.netjack2)
    }

    /// A cable pulled at rig B's end for 5 s and put back: both rigs answer
    /// every ping throughout, keep their scenes, and B hears A again within
    /// 5 s of the link's return; A's own outputs play on throughout.
    ///
    /// netjack2's master notices the gone slave within a second or two,
    /// and its link client asks the net manager (by multicast: the link
    /// routes 224.0.0.0/4, as a LAN's default route would) to remove it;
    /// the slave comes back under its own name, and rig A's
    /// `--connect-outputs` and rig B's `--connect-inputs` connect the
    /// link's new ports. Its master runs asynchronously, as jackd does by
    /// default: a synchronous one stalls its whole graph while the gone
    /// slave's client waits. zita-njbridge's return within 5 s is held to
    /// only while the servers' clocks stayed steady (as in
    /// ``zitaNjbridgeCarriesAToneForAMinute()``); otherwise within the
    /// 10 s its receiver waits before it starts again.
    @Test(arguments: [Engine.zita])
    func aLinkCutForFiveSecondsComesBack(_ engine: Engine) async throws {
        try await withShow(engine, synchronous: engine == .zita) { show in
            let (a, b) = (show.rigs[.a]!, show.rigs[.b]!)
            try await a.set("/source/1/name", .string("FOH vocal"))
            try await a.set("/output/2/name", .string("to monitors"))
            try await a.set("/dca/1/db", .float(-6))
            try await b.set("/source/1/name", .string("from FOH"))
            try await b.set("/output/1/name", .string("wedge 1"))
            try await b.set("/mutegroup/2/mute", .int32(1))
            let watched = ["/source/1/name", "/output/1/name", "/output/2/name", "/dca/1/db", "/mutegroup/2/mute",
                           "/matrix/1/1", "/matrix/2/2", "/source/1/volume", "/master/db"]
            var before: [Side: [[OSCTestClient.Argument]]] = [:]
            var xruns: [Side: Double] = [:]
            for rig in [a, b] {
                before[rig.side] = try await watched.asyncMap { try await rig.query($0) }
                xruns[rig.side] = try await rig.status("xruns")
            }

            let pinger = Pinger([a, b])
            pinger.start()
            // zita-n2j's restart after a cut is counted on a clock that
            // strays with the dummy backends' (up to 24 % in CI): room for it.
            let (played, heard) = try await show.startTaps(seconds: engine == .zita ? 26 : 20)
            let heardClock = try await heard.waitUntilRecording()
            try await Task.sleep(for: .seconds(3))
            let cutAt = Date().timeIntervalSince1970
            try await show.network.cut(.b)
            try await Task.sleep(for: .seconds(5))
            try await show.network.restore(.b)
            let restoredAt = Date().timeIntervalSince1970
            let (playedTake, heardTake) = (try await played.finish(), try await heard.finish())
            let pings = await pinger.stop()
            if engine == .netjack2 {
                // The master's link client asked its net manager to remove
                // it (by multicast, which the link routes) when its slave
                // went: the slave came back under its own name, with no
                // dead client beside it.
                let clients = Set(try show.servers[.a]!.portNames(matching: "^\(Show.slaveName)").map { $0.split(separator: ":")[0] })
                #expect(clients == [Substring(Show.slaveName)], "the link's clients on the master: \(clients)")
            }

            // Both rigs answered every ping, and kept their scenes.
            #expect(pings.missed.isEmpty, "\(pings.missed.count) of \(pings.sent) pings unanswered: \(pings.missed)")
            #expect(pings.sent >= 40, "\(pings.sent) pings")
            var xrunsDuring: [Side: Double] = [:]
            for rig in [a, b] {
                let after = try await watched.asyncMap { try await rig.query($0) }
                #expect(after == before[rig.side]!, "rig \(rig.side): \(zip(watched, after).map { "\($0) \($1)" })")
                xrunsDuring[rig.side] = try await rig.status("xruns") - xruns[rig.side]!
            }
            #expect(before[.a]![0] == [.string("FOH vocal")] && before[.b]![4].first?.numericValue == 1,
                    "the edits took: \(before)")

            // B: silent during the cut, back after the link's return.
            let link = LinkMeasurement(played: playedTake, heard: heardTake, codeChannel: 2, amplitude: Self.codeAmplitude)
            let tolerance = engine == .zita ? 1.5 : 0.01
            let cut = heardClock.jackMicroseconds(atUnixTime: cutAt)
            let restored = heardClock.jackMicroseconds(atUnixTime: restoredAt)
            let lost = link.periods.first { $0.microseconds >= cut && $0.played == nil }?.microseconds
            let back = link.audioReturns(after: restored, lasting: 0.5, tolerance: tolerance).map { ($0 - restored) / 1e6 }
            let during = link.periods.filter { $0.microseconds > cut + 1e6 && $0.microseconds < restored }
            let bRate = during.count > 1
                ? Double(during.reduce(0) { $0 + $1.frames }) / ((during.last!.microseconds - during.first!.microseconds) / 1e6) : 0
            let wander = LinkMeasurement.clockWander(played: playedTake, heard: heardTake)
            Self.note("\(engine.rawValue), cut at B for 5 s: B silent \(lost.map { String(format: "%.2f s", ($0 - cut) / 1e6) } ?? "never") after the cut, \(during.filter { $0.played != nil }.count) of \(during.count) periods with code during it (the last \(during.last { $0.played != nil }.map { String(format: "%.2f s", ($0.microseconds - cut) / 1e6) } ?? "none") after the cut), B's clock at \(String(format: "%.0f", bRate)) frames/s; audio back \(back.map { String(format: "%.2f s", $0) } ?? "never") after the link's return; pings \(pings.sent), unanswered \(pings.missed.count); xruns counted meanwhile by rig A \(Int(xrunsDuring[.a]!)), rig B \(Int(xrunsDuring[.b]!)); clocks strayed up to \(String(format: "%.3f %%", wander * 100))")
            #expect(lost != nil, "B heard nothing go")
            // A netjack2 slave's graph stops for about 2 s when the master's
            // packets stop coming, playing a few periods it still had (3 to
            // 15 here; 195 on a loaded machine); once B fell silent, it
            // hears nothing of A until the link is back.
            let heardDuring = link.periods.filter { $0.microseconds > lost ?? cut && $0.microseconds < restored && $0.played != nil }.count
            #expect(heardDuring == 0, "B heard \(heardDuring) periods of code through a cut link")
            let check = "zita-njbridge back within 5 s of the link"
            if engine == .zita && wander > Self.steadyClocks {
                FileHandle.standardError.write(Data("note: skipped \"\(check)\": the dummy backends' clocks strayed by up to \(String(format: "%.2f %%", wander * 100)); held to zita-n2j's 10 s restart instead\n".utf8))
                // Its 10 s are counted by a clock that strays with the others
                // (11.44 s came back at 5.83 %, in CI's run of 1b22882).
                let restart = 10 * (1 + wander) + 1
                let taken = heardTake.callbackMicroseconds.last.map { (Double($0) - restored) / 1e6 } ?? 0
                if back == nil && taken < restart + 0.5 {
                    FileHandle.standardError.write(Data("note: skipped \"zita-njbridge back within its restart\": the take ended \(String(format: "%.1f s", taken)) after the link's return, before its restart was due (\(String(format: "%.1f s", restart)))\n".utf8))
                } else {
                    #expect(back.map { $0 <= restart } == true, "back \(String(describing: back)) s after the link's return (at most \(restart))")
                }
            } else {
                #expect(back.map { $0 <= 5 } == true, "back \(String(describing: back)) s after the link's return")
            }

            // A's own outputs (what A's audience hears) played on: its
            // graph ran (a netjack2 master in synchronous mode managed one
            // cycle in 14 to 20, by hand) and carried the code it was given.
            let aCode = playedTake.recording.channels[1]
            let aPeriods = zip(playedTake.recording.periods, playedTake.callbackMicroseconds)
                .filter { Double($1) > cut && Double($1) < restored }
            let aCarried = aPeriods.filter { period, _ in
                let value = Double(aCode[period.offset])
                let frame = (value / Self.codeAmplitude * Double(JackTap.Signal.codeModulus) - 1).rounded()
                let expected = Double(period.frameTime % UInt32(JackTap.Signal.codeModulus))
                return abs(frame - expected) <= 64
            }
            let aRate = Double(aPeriods.count * 64) / ((restored - cut) / 1e6)
            Self.note("\(engine.rawValue), cut at B: A's graph ran at \(String(format: "%.0f", aRate)) frames/s during the cut, \(aCarried.count) of \(aPeriods.count) periods carrying their code")
            #expect(aRate >= Double(playedTake.recording.sampleRate) / 2, "A's graph ran at \(aRate) frames/s")
            #expect(aCarried.count * 100 >= aPeriods.count * 99, "A's outputs: \(aCarried.count) of \(aPeriods.count) periods as played")
        }
    }
}
}

extension Array {
    /// `map` for an async transform, in order.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        result.reserveCapacity(count)
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
