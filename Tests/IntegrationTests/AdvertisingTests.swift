import Foundation
import Testing

extension Integration {
/// DNS-SD through a real `avahi-daemon` and D-Bus, in a network namespace of
/// the test's own (``MDNSNamespace``): the rig is seen by `avahi-browse` and
/// by python-oscquery's browser (python-zeroconf), takes Avahi's alternative
/// name on a conflict, withdraws on exit, and serves without a daemon.
@Suite struct AdvertisingTests {
    /// A `crosspoint serve` inside `network`, on a JACK server outside it.
    struct NamespacedRig {
        let jack: JackServer
        let process: ChildProcess
        let oscPort: Int
        let httpPort: Int
        let directory: URL

        static func start(in network: MDNSNamespace, _ arguments: [String]) async throws -> NamespacedRig {
            let jack = try await JackServer.start()
            do {
                let directory = try CrosspointRig.makeDirectory()
                let process = try network.run(
                    CrosspointRig.binary,
                    ["serve", "--jack-server", jack.name, "--no-autostart", "--osc-port", "0", "--http-port", "0",
                     "--inputs", "2", "--outputs", "2"] + CrosspointRig.fileArguments(directory) + arguments,
                    label: "crosspoint serve")
                let ready = try await process.waitForOutput(containing: "ready: OSC on UDP port", timeout: .seconds(20))
                let words = ready.split(separator: " ")
                func number(after word: Substring, skipping: Int) -> Int? {
                    words.drop { $0 != word }.dropFirst(skipping).first
                        .flatMap { Int($0.trimmingCharacters(in: .punctuationCharacters)) }
                }
                guard let osc = number(after: "port", skipping: 1), let http = number(after: "HTTP", skipping: 2) else {
                    process.terminate()
                    throw RigError("no ports in: \(ready)")
                }
                return NamespacedRig(jack: jack, process: process, oscPort: osc, httpPort: http, directory: directory)
            } catch {
                jack.stop()
                throw error
            }
        }

        func stop() {
            process.terminate()
            jack.stop()
            try? FileManager.default.removeItem(at: directory)
        }

        var diagnostics: String { "crosspoint:\n\(process.diagnostics())\njackd:\n\(jack.diagnostics)" }
    }

    /// Runs `body` with a namespace and a rig in it; stops both, whatever happens.
    func withNamespacedRig(_ daemons: MDNSNamespace.Daemons = .dbusAndAvahi, arguments: [String],
                           before: (MDNSNamespace) async throws -> Void = { _ in },
                           _ body: (MDNSNamespace, NamespacedRig) async throws -> Void) async throws {
        let network = try await MDNSNamespace(daemons)
        defer { network.stop() }
        try await before(network)
        let rig = try await NamespacedRig.start(in: network, arguments)
        defer { rig.stop() }
        do {
            try await body(network, rig)
        } catch {
            Issue.record("\(error)\n\(rig.diagnostics)\nnamespace:\n\(network.diagnostics)")
            throw error
        }
    }

    /// Browses `type` until `accept` holds of what is seen (or 10 s pass).
    func browse(_ network: MDNSNamespace, _ type: String,
                until accept: ([(name: String, port: Int)]) -> Bool) async throws -> [(name: String, port: Int)] {
        var seen: [(name: String, port: Int)] = []
        for _ in 0..<20 {
            seen = try await network.browse(type)
            if accept(seen) { break }
            try await Task.sleep(for: .milliseconds(500))
        }
        return seen
    }

    static let uniqueName = "Crosspoint test \(UInt32.random(in: 0...UInt32.max))"

    /// A name DNS-SD cannot carry is refused before anything starts, with
    /// the flag named: empty, longer than one DNS label, or with control
    /// characters.
    @Test(arguments: ["", String(repeating: "x", count: 64), "Stage\tleft", "Stage\nleft"])
    func anUnusableNameIsRefused(_ name: String) async throws {
        let serve = try ChildProcess(executable: CrosspointRig.binary,
                                     arguments: ["serve", "--no-autostart", "--name", name])
        let exit = try await serve.waitForExit()
        #expect(exit != .exited(0))
        #expect(serve.standardError.contains("--name:"), "\(serve.standardError)")
        #expect(!serve.standardError.contains("ready:"))
    }

    @Test func theRigIsSeenByAvahiAndOSCQueryBrowsersAndWithdrawnOnExit() async throws {
        let name = Self.uniqueName + " a"
        try await withNamespacedRig(arguments: ["--name", name]) { network, rig in
            let expected = [("_osc._udp", rig.oscPort), ("_osc._tcp", rig.oscPort), ("_oscjson._tcp", rig.httpPort)]
            for (type, port) in expected {
                let seen = try await browse(network, type) { $0.contains { $0.name == name } }
                #expect(seen.contains { $0.name == name && $0.port == port }, "\(type): \(seen)")
            }
            _ = try await rig.process.waitForOutput(containing: "DNS-SD: advertised as '\(name)'")

            // python-oscquery: its browser finds the service by name, and its
            // client reads HOST_INFO and values.
            let tool = URL(fileURLWithPath: MDNSNamespace.script).deletingLastPathComponent()
                .appendingPathComponent("oscquery_browse.py").path
            let report = try await network.output(of: "python3", [tool, name, "--timeout", "10",
                                                                  "/source/1/volume", "/master/db", "/matrix/1/1"])
            let json = try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any], "\(report)")
            let service = try #require(json["service"] as? [String: Any], "\(report)")
            #expect(service["port"] as? Int == rig.httpPort)
            let info = try #require(json["host_info"] as? [String: Any])
            #expect(info["NAME"] as? String == name)
            #expect(info["OSC_PORT"] as? Int == rig.oscPort)
            #expect(info["OSC_TRANSPORT"] as? String == "UDP")
            #expect((json["osc_services"] as? [[String: Any]])?.contains {
                $0["name"] as? String == name && $0["port"] as? Int == rig.oscPort } == true, "\(report)")
            let values = try #require(json["values"] as? [String: Any])
            #expect(values["/source/1/volume"] as? [Double] == [1])
            #expect(values["/master/db"] as? [Double] == [0])
            #expect(values["/matrix/1/1"] as? [Double] == [1]) // from the raw JSON if python-oscquery refuses the node
            // The whole tree: python-oscquery takes every node but the
            // crosspoints, which are methods with children (/db, /fader),
            // a shape its parser refuses (docs/oscquery.md).
            let tree = try #require(json["tree"] as? [String: Any], "\(report)")
            let refusals = tree["refused_by_error"] as? [String: Int] ?? [:]
            #expect(tree["refused"] as? Int == 4, "2x2 crosspoints only: \(tree)")
            #expect(refusals.keys.allSatisfy { $0.contains("child nodes") && $0.contains("not both") }, "\(refusals)")
            #expect((tree["refused_examples"] as? [String: Any])?.keys.allSatisfy { $0.hasPrefix("/matrix/") } == true)

            // SIGTERM: withdrawn.
            rig.process.signalIfRunning(SIGTERM)
            try await rig.process.waitForExit(timeout: .seconds(10))
            #expect(rig.process.standardError.contains("DNS-SD: withdrawn"))
            for (type, _) in expected {
                let seen = try await browse(network, type) { !$0.contains { $0.name == name } }
                #expect(!seen.contains { $0.name == name }, "\(type) still seen after exit: \(seen)")
            }
        }
    }

    @Test func aTakenNameGivesWayToAvahisAlternative() async throws {
        let name = Self.uniqueName + " b"
        var publisher: ChildProcess?
        defer { publisher?.terminate() }
        try await withNamespacedRig(arguments: ["--name", name], before: { network in
            publisher = try network.run("avahi-publish", ["-s", name, "_osc._udp", "1234"])
            try await publisher?.waitForOutput(containing: "Established under name")
        }) { network, rig in
            let renamed = "\(name) #2"
            let line = try await rig.process.waitForOutput(containing: "is taken; renamed to")
            #expect(line.contains("notice") && line.contains("'\(name)'") && line.contains("'\(renamed)'"), "\(line)")
            let seen = try await browse(network, "_osc._udp") { $0.contains { $0.name == renamed } }
            #expect(seen.contains { $0.name == renamed && $0.port == rig.oscPort }, "\(seen)")
            #expect(seen.contains { $0.name == name && $0.port == 1234 }, "the other publisher keeps its name: \(seen)")
            let json = try await network.output(of: "python3", ["-c", """
                import json, urllib.request
                print(urllib.request.urlopen("http://127.0.0.1:\(rig.httpPort)/?HOST_INFO").read().decode())
                """])
            let info = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            #expect(info?["NAME"] as? String == renamed, "HOST_INFO follows the rename: \(json)")
        }
    }

    @Test func noAdvertiseAdvertisesNothing() async throws {
        let name = Self.uniqueName + " c"
        try await withNamespacedRig(arguments: ["--name", name, "--no-advertise"]) { network, rig in
            try await Task.sleep(for: .seconds(1.5))
            for type in ["_osc._udp", "_osc._tcp", "_oscjson._tcp"] {
                let seen = try await network.browse(type)
                #expect(!seen.contains { $0.name == name }, "\(type): \(seen)")
            }
            #expect(!rig.process.standardError.contains("DNS-SD"), "\(rig.process.standardError)")
        }
    }

    /// No avahi-daemon (a D-Bus without it), then not even D-Bus: one line,
    /// and OSC is served as usual.
    @Test(arguments: [MDNSNamespace.Daemons.dbusOnly, .none])
    func withoutAvahiTheRigLogsOneLineAndServes(_ daemons: MDNSNamespace.Daemons) async throws {
        try await withNamespacedRig(daemons, arguments: []) { network, rig in
            try await rig.process.waitForOutput(containing: "DNS-SD: no Avahi daemon")
            let pong = try await network.output(of: CrosspointRig.binary, ["send", "--port", "\(rig.oscPort)",
                                                                            "--wait", "0.5", "/ping"])
            #expect(pong.contains("/pong"), "\(pong)")
            let lines = rig.process.standardError.split(separator: "\n").filter { $0.contains("DNS-SD") }
            #expect(lines.count == 1, "\(lines)")
        }
    }
}
}
