import Foundation
import Synchronization
import Testing

/// TwoRigsTests' show: both servers, the link between them, a rig on
/// each, and the taps; started and stopped whole.
extension Integration.TwoRigsTests {
    /// Both servers, the link between them and a rig on each.
    final class Show: @unchecked Sendable {
        let engine: Engine
        let network: LinkedNamespaces
        let directory: URL
        private(set) var servers: [Side: JackServer] = [:]
        private(set) var link: [ChildProcess] = []
        private(set) var rigs: [Side: Rig] = [:]
        private(set) var tapExecutable = ""

        /// The name server B (a netjack2 slave) has on the master.
        static let slaveName = "rigB"
        /// zita-njbridge's UDP port.
        static let zitaPort = "30000"

        private init(engine: Engine, network: LinkedNamespaces) throws {
            self.engine = engine
            self.network = network
            directory = try CrosspointRig.makeDirectory()
        }

        /// - Parameter synchronous: the servers in JACK's synchronous mode
        ///   (`-S`; netjack2: the master's), or in its default asynchronous
        ///   one. Synchronous gives clean recordings on a busy machine, but
        ///   its dummy clock slows down under load, each server's by its own
        ///   amount, which zita-njbridge's resampler then chases; and a
        ///   netjack2 master's whole graph stalls after its link drops.
        static func start(_ engine: Engine, synchronous: Bool = true) async throws -> Show {
            let show = try Show(engine: engine, network: try await LinkedNamespaces())
            do {
                show.tapExecutable = try await JackTap.build(in: show.directory)
                try await show.startServersAndLink(synchronous: synchronous)
                let arguments: [Side: [String]] = switch engine {
                case .zita: [.a: ["--connect-outputs", "^zita-j2n:in_"], .b: ["--connect-inputs", "^zita-n2j:out_"]]
                case .netjack2: [.a: ["--connect-outputs", "^\(slaveName):to_slave_"],
                                 .b: ["--connect-inputs", "^system:capture_", "--connect-outputs", "^system:playback_"]]
                }
                for side in Side.allCases {
                    show.rigs[side] = try await Rig.start(side, in: show.network, jack: show.servers[side]!,
                                                          arguments: arguments[side]!)
                }
                return show
            } catch {
                show.stop()
                throw error
            }
        }

        private func startServersAndLink(synchronous: Bool) async throws {
            switch engine {
            case .zita:
                for side in Side.allCases {
                    servers[side] = try await JackServer.start(synchronous: synchronous, launcher: network.launcher(side))
                }
                // The receiver first, so the sender's first packets find it.
                // --info, line by line: its control loop's error and ratio
                // once a second, in the diagnostics of a failure.
                link.append(try network.run(.b, "stdbuf", ["-oL", "zita-n2j", "--info", "--jserv", servers[.b]!.name,
                                                          "--chan", "1,2", Side.b.address, Self.zitaPort],
                                            label: "zita-n2j"))
                link.append(try network.run(.a, "zita-j2n", ["--jserv", servers[.a]!.name, "--chan", "2",
                                                             Side.b.address, Self.zitaPort]))
                try await waitForPorts(on: .b, matching: "^zita-n2j:out_", count: 2)
                try await waitForPorts(on: .a, matching: "^zita-j2n:in_", count: 2)
            case .netjack2:
                servers[.a] = try await JackServer.start(synchronous: synchronous, launcher: network.launcher(.a))
                try await loadNetManager()
                // The slave: its backend is the link (no -C/-P: those made it die with SIGFPE).
                servers[.b] = try await JackServer.start(driver: ["net", "-a", Side.a.address, "-n", Self.slaveName],
                                                         launcher: network.launcher(.b))
                try await waitForPorts(on: .a, matching: "^\(Self.slaveName):to_slave_", count: 2)
            }
        }

        /// `jack_load netmanager` on server A: the netjack2 master.
        func loadNetManager() async throws {
            try await network.output(.a, "jack_load", ["-s", servers[.a]!.name, "netmanager"])
        }

        func waitForPorts(on side: Side, matching pattern: String, count: Int,
                          timeout: Duration = .seconds(15)) async throws {
            let deadline = ContinuousClock.now + timeout
            while true {
                let found = (try? servers[side]!.portNames(matching: pattern)) ?? []
                if found.count >= count { return }
                if ContinuousClock.now > deadline { throw RigError("no \(count) ports matching \(pattern) on \(side): \(found)") }
                try await Task.sleep(for: .milliseconds(100))
            }
        }

        /// The two taps: A plays the tone into rig A's in_1 and the code into
        /// in_2 and records rig A's own outputs (what A's audience hears),
        /// and any other ports of A's given, for `seconds` + 3; B records
        /// rig B's outputs for `seconds`, starting once A plays.
        func startTaps(seconds: Double, alsoRecordOnA: [String] = []) async throws -> (played: JackTap, heard: JackTap) {
            func launcher(_ side: Side) -> (String, [String]) throws -> ChildProcess {
                { [servers] executable, arguments in
                    try ChildProcess(executable: executable, arguments: arguments,
                                     environment: ["JACK_DEFAULT_SERVER": servers[side]!.name], label: "jack-tap \(side)")
                }
            }
            let played = try JackTap.start(
                executable: tapExecutable, name: "ta", seconds: seconds + 3,
                play: [.sine(Integration.TwoRigsTests.toneFrequency, Integration.TwoRigsTests.toneAmplitude), .code(Integration.TwoRigsTests.codeAmplitude)],
                record: 2 + alsoRecordOnA.count,
                connections: [("ta_play:out_1", "crosspoint:in_1"), ("ta_play:out_2", "crosspoint:in_2"),
                              ("crosspoint:out_1", "ta_rec:in_1"), ("crosspoint:out_2", "ta_rec:in_2")]
                    + alsoRecordOnA.enumerated().map { ($1, "ta_rec:in_\($0 + 3)") },
                output: directory.appendingPathComponent("a.take"), launch: launcher(.a))
            _ = try await played.waitUntilRecording()
            let heard = try JackTap.start(
                executable: tapExecutable, name: "tb", seconds: seconds, play: [], record: 2,
                connections: [("crosspoint:out_1", "tb_rec:in_1"), ("crosspoint:out_2", "tb_rec:in_2")],
                output: directory.appendingPathComponent("b.take"), launch: launcher(.b))
            return (played, heard)
        }

        func stop() {
            // CROSSPOINT_TEST_KEEP_TAKES=DIR keeps the taps' takes there
            // (`ENGINE-a.take`, `ENGINE-b.take`, the last test's of each
            // engine; format: tools/jack-tap/jack_tap.c).
            if let keep = ProcessInfo.processInfo.environment["CROSSPOINT_TEST_KEEP_TAKES"] {
                for name in ["a.take", "b.take"] {
                    let target = URL(fileURLWithPath: keep).appendingPathComponent("\(engine.rawValue)-\(name)")
                    try? FileManager.default.removeItem(at: target)
                    try? FileManager.default.copyItem(at: directory.appendingPathComponent(name), to: target)
                }
            }
            for rig in rigs.values { rig.stop() }
            for process in link.reversed() { process.terminate() }
            // The slave before its master.
            servers[.b]?.stop()
            servers[.a]?.stop()
            network.stop()
            try? FileManager.default.removeItem(at: directory)
        }

        /// Whether both servers run real-time, for checks that judge the
        /// link by its breaks (as checks that count xruns are judged).
        func realtime(_ check: String) -> Bool {
            Side.allCases.allSatisfy { servers[$0]?.xrunChecksApply(to: check) ?? false }
        }

        var diagnostics: String {
            var report = ""
            for side in Side.allCases {
                if let rig = rigs[side] { report += "crosspoint \(side):\n\(rig.process.diagnostics())\n" }
                if let server = servers[side] { report += "jackd \(side):\n\(server.diagnostics)\n" }
            }
            for process in link { report += "\(process.label):\n\(process.diagnostics())\n" }
            return report + network.diagnostics
        }
    }
}
