import Foundation
import Testing

/// Control as one across two machines (issue 26): one timed bundle, sent by
/// `crosspoint send --host A --host B --at` from side A's network to both
/// rigs over the link, lands on each rig's own JACK server at the sample
/// that server's clock gives for its time.
extension Integration.TwoRigsTests {
    /// How the two servers keep time.
    enum Clocks: String, Sendable, CustomTestStringConvertible {
        /// Each its own `dummy` clock, as two machines with their own
        /// sound cards (zita-njbridge's topology; the link is not needed here).
        case twoClocks = "two clocks"
        /// A netjack2 master and its slave, which runs on the master's cycles.
        case netjack2
        var testDescription: String { rawValue }
    }

    /// Two servers, a rig on each, and on each a tap that plays the frame
    /// code into the rig's `in_1` and records its `out_1`. The code passes
    /// the rig at unity bit for bit, so the first recorded sample that
    /// differs from it is where the cue (`/matrix/1/1 0 0`, no fade) began.
    /// Each tap keeps every period's span of its server's clock
    /// (`jack_get_cycle_times`), where the cue's time has its sample, as the
    /// rig places it; both servers' clocks are the machine's
    /// `CLOCK_MONOTONIC_RAW`, the tap's clock line maps the Unix time to it.
    /// With netjack2 the note also gives where in its period each cue fell:
    /// the slave's periods carry the master's, frame for frame.
    @Test(arguments: [Clocks.twoClocks, .netjack2])
    func aTimedBundleLandsOnEachRigAtItsTimeOnItsOwnServer(_ clocks: Clocks) async throws {
        let network = try await LinkedNamespaces()
        let directory = try CrosspointRig.makeDirectory()
        var servers: [Side: JackServer] = [:]
        var rigs: [Side: Rig] = [:]
        var taps: [Side: JackTap] = [:]
        defer {
            for tap in taps.values { tap.process.terminate() }
            for rig in rigs.values { rig.stop() }
            for server in servers.values { server.stop() }
            network.stop()
            try? FileManager.default.removeItem(at: directory)
        }
        let executable = try await JackTap.build(in: directory)
        switch clocks {
        case .twoClocks:
            for side in Side.allCases { servers[side] = try await JackServer.start(launcher: network.launcher(side)) }
        case .netjack2:
            servers[.a] = try await JackServer.start(synchronous: false, launcher: network.launcher(.a))
            try await network.output(.a, "jack_load", ["-s", servers[.a]!.name, "netmanager"])
            servers[.b] = try await JackServer.start(driver: ["net", "-a", Side.a.address, "-n", Show.slaveName],
                                                     launcher: network.launcher(.b))
        }
        for side in Side.allCases {
            rigs[side] = try await Rig.start(side, in: network, jack: servers[side]!, arguments: [])
        }
        var startups: [Side: JackTap.Startup] = [:]
        for side in Side.allCases {
            let name = servers[side]!.name
            taps[side] = try JackTap.start(
                executable: executable, name: "cue\(side)", seconds: 3, play: [.code(Self.codeAmplitude)], record: 1,
                connections: [("cue\(side)_play:out_1", "crosspoint:in_1"), ("crosspoint:out_1", "cue\(side)_rec:in_1")],
                output: directory.appendingPathComponent("cue-\(side).take")) { executable, arguments in
                    try ChildProcess(executable: executable, arguments: arguments,
                                     environment: ["JACK_DEFAULT_SERVER": name], label: "jack-tap \(side)")
                }
            startups[side] = try await taps[side]!.waitUntilRecording()
        }
        try await Task.sleep(for: .milliseconds(300))

        let time = Date().timeIntervalSince1970 + 0.5
        let hosts = Side.allCases.flatMap { ["--host", "\($0.address):\(rigs[$0]!.oscPort)"] }
        // Sent from A's side: to A's own address and across the link to B's.
        try await network.output(.a, CrosspointRig.binary,
                                 ["send"] + hosts + ["--at", String(format: "%.6f", time), "/matrix/1/1", "0", "0"])

        var report: [String] = []
        for side in Side.allCases {
            let take = try await taps[side]!.finish()
            let recording = take.recording
            let due = try #require(recording.sampleIndex(atJackTime: UInt64(startups[side]!.jackMicroseconds(atUnixTime: time))),
                                   "rig \(side): the cue's time is in the recording (gaps: \(recording.gaps))")
            let samples = recording.channels[0]
            let moved = try #require(Self.firstDeparture(from: .code(Self.codeAmplitude), in: recording),
                                     "rig \(side) took the cue")
            let period = servers[side]!.periodSize
            let offset = recording.periods.last { $0.offset <= moved }.map { moved - $0.offset }
            report.append("rig \(side): sample \(moved), its server's clock gives \(due) (\(moved - due) frames), \(offset.map(String.init) ?? "?") into its period")
            // Within a period of its time on its own server's clock; to the
            // frame where nothing got in the way (a frame either way for the
            // tap's own reading of the wall clock against JACK's).
            #expect(abs(moved - due) <= period, "rig \(side): the cue at sample \(moved), its time at \(due)")
            if servers[side]!.xrunChecksApply(to: "rig \(side)'s cue to the frame") {
                #expect(abs(moved - due) <= 1, "rig \(side): the cue at sample \(moved), its time at \(due)")
            }
            #expect(samples[(moved + period)...].allSatisfy { $0 == 0 }, "rig \(side): silent after the cue")
        }
        Self.note("a timed cue to both rigs across the link, \(clocks.rawValue): \(report.joined(separator: "; "))")
    }
    /// The first sample of a recording that is not what `signal` played at
    /// its frame (nil: none).
    static func firstDeparture(from signal: JackTap.Signal, in recording: Recording) -> Int? {
        let samples = recording.channels[0]
        for (position, period) in recording.periods.enumerated() {
            let end = position + 1 < recording.periods.count ? recording.periods[position + 1].offset : samples.count
            for index in period.offset..<end {
                let frame = period.frameTime &+ UInt32(index - period.offset)
                if samples[index] != Float(signal.expected(frameTime: frame, sampleRate: recording.sampleRate)) { return index }
            }
        }
        return nil
    }
}
