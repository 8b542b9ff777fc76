import Foundation
import Testing

/// Patterns with bounded cost (issue 32): the probe's patterns, sent as a
/// source's patch with 240 JACK ports of 65-character names to match, are
/// refused or answered within 100 ms each; a `/ping` sent right behind each
/// is answered at once, and the rig's memory stays where it was. Before,
/// `(.{1,32767}){1,32767}` took regcomp 12.8 s and 3 GB, and
/// `(.*)(.*)(.*)\3\2\1z` took regexec a second per port name while holding
/// the JACK host's lock: pings unanswered for minutes.
extension Integration {
@Suite struct PatternCostTests {
    static let refused = [
        "(.{1,32767}){1,32767}", "((((x{0,255}){0,255}){0,255}){0,255})", "(.*)(.*)(.*)\\3\\2\\1z",
        "(.*)(.*)(.*)(.*)(.*)\\5\\4\\3\\2\\1z", "(a|b)*a(a|b){12}",
    ]
    /// Accepted, and matched by the supervisor against every port: each
    /// names the 240th port alone, which must feed source 2 within a second.
    static let accepted = ["(.*)(.*)(.*)_240$", "(.{1,30}){1,30}_240$", "^(.*)(.*)(.*)(.*)(.*)_240$"]

    @Test func everyPatternIsRefusedOrAnsweredAtOnceAndPingsGoOn() async throws {
        try await withRig(inputs: 4, outputs: 2) { rig in
            try rig.source.disconnect(from: rig.source.playPort(2), to: "crosspoint:in_2")
            let prefix = String(String(repeating: "node-of-a-long-pipewire-graph-", count: 3).prefix(60)) + "_"
            let many = try JackProbe(server: rig.jack, clientName: "pw", playPorts: 240, recordPorts: 0, playPrefix: prefix)
            defer { many.close() }
            #expect(many.playPortNames[0].count == 65)
            let pinger = try OSCTestClient(target: .init(host: "127.0.0.1", port: rig.oscPort))
            defer { pinger.close() }
            try await rig.ping()
            try await Task.sleep(for: .milliseconds(300)) // the supervisor has seen the ports
            let before = Integration.HTTPBoundsTests.residentKiB(rig.crosspoint.pid)
            var pings: [Duration] = []
            func pingNow() async throws {
                let start = ContinuousClock.now
                try pinger.send("/ping")
                _ = try await pinger.waitFor(address: "/pong", timeout: .seconds(5))
                pings.append(ContinuousClock.now - start)
            }
            for pattern in Self.refused {
                _ = try rig.osc.drain()
                let start = ContinuousClock.now
                try rig.osc.send("/source/2/patch", .string(pattern))
                try await pingNow()
                let error = try await rig.osc.waitFor(address: "/error", timeout: .seconds(5))
                let took = ContinuousClock.now - start
                #expect(took < .milliseconds(100), "\(pattern): refused after \(took)")
                let reason = error.argument(1)?.stringValue ?? ""
                #expect(reason.contains("not supported") || reason.contains("too complex"), "\(pattern): \(reason)")
            }
            for pattern in Self.accepted {
                let start = ContinuousClock.now
                try rig.osc.send("/source/2/patch", .string(pattern))
                try await pingNow()
                #expect(ContinuousClock.now - start < .milliseconds(100), "\(pattern) answered late")
                let connected = try await SourcePatchTests.within(.seconds(1)) {
                    try rig.recorder.connections(of: "crosspoint:in_2") == [many.playPortNames[239]]
                }
                #expect(connected != nil, "\(pattern): \((try? rig.recorder.connections(of: "crosspoint:in_2")) ?? [])")
                for _ in 0..<5 { try await pingNow() }
            }
            let after = Integration.HTTPBoundsTests.residentKiB(rig.crosspoint.pid)
            #expect(after - before < 10 * 1024, "RSS \(before) KiB before, \(after) KiB after")
            let sorted = pings.sorted()
            let median = sorted[sorted.count / 2]
            print("note: pattern costs: \(pings.count) pings, median \(median), largest \(sorted.last ?? .zero); RSS \(before) -> \(after) KiB")
            #expect(median < .milliseconds(5), "pings: \(sorted)")
            #expect(sorted.last ?? .zero < .milliseconds(100), "pings: \(sorted)")
        }
    }
}
}
