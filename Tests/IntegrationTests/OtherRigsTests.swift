import Foundation
import Testing

extension Integration {
/// Two rigs on one network find each other through a real `avahi-daemon`
/// in the test's own namespace (issue 26): `/rigs` on each names the
/// other, with its page's address, and a rig that stops leaves the list.
/// A service without Crosspoint's TXT mark is not listed.
@Suite struct OtherRigsTests {
    /// `/rigs` of the rig on `port`, asked from inside the namespace, until
    /// `accept` holds of its answer (or 15 s pass).
    static func rigs(_ network: MDNSNamespace, port: Int, until accept: (String) -> Bool) async throws -> String {
        var answer = ""
        for _ in 0..<30 {
            answer = try await network.output(of: CrosspointRig.binary, ["send", "--port", "\(port)", "--wait", "0.5", "/rigs"])
            if accept(answer) { break }
            try await Task.sleep(for: .milliseconds(500))
        }
        return answer
    }

    @Test func eachRigListsTheOtherWithItsPage() async throws {
        let name = AdvertisingTests.uniqueName
        let (a, b) = (name + " A", name + " B")
        try await AdvertisingTests().withNamespacedRig(arguments: ["--name", a]) { network, first in
            // Not a rig: an OSCQuery service without the mark.
            let stranger = try network.run("avahi-publish", ["-s", name + " stranger", "_oscjson._tcp", "4321"])
            defer { stranger.terminate() }
            let second = try await AdvertisingTests.NamespacedRig.start(in: network, ["--name", b])
            var stopped = false
            defer { if !stopped { second.stop() } }
            let seenByA = try await Self.rigs(network, port: first.oscPort) { $0.contains(b) }
            #expect(seenByA.contains("/rigs ,ss \(b) http://127.0.0.1:\(second.httpPort)/"), "\(seenByA)")
            let seenByB = try await Self.rigs(network, port: second.oscPort) { $0.contains(a) }
            #expect(seenByB.contains("/rigs ,ss \(a) http://127.0.0.1:\(first.httpPort)/"), "\(seenByB)")
            #expect(!seenByA.contains("stranger") && !seenByB.contains("stranger"), "only rigs: \(seenByA) \(seenByB)")
            second.stop()
            stopped = true
            let after = try await Self.rigs(network, port: first.oscPort) { !$0.contains(b) }
            #expect(after.hasPrefix("/rigs") && !after.contains(b), "a rig that stops leaves the list: \(after)")
        }
    }

    /// Each rig's page (headless Chromium, run inside the namespace) lists
    /// the other in its status bar, as a link to the other's page.
    @Test func eachRigsPageListsTheOther() async throws {
        let name = AdvertisingTests.uniqueName
        let (a, b) = (name + " page A", name + " page B")
        try await AdvertisingTests().withNamespacedRig(arguments: ["--name", a]) { network, first in
            let second = try await AdvertisingTests.NamespacedRig.start(in: network, ["--name", b])
            defer { second.stop() }
            for (rig, own, other, otherRig) in [(first, a, b, second), (second, b, a, first)] {
                let report = try await network.output(
                    of: "python3", [Integration.PageTests.tool("rigs_check.py"), "list", "--http-port", "\(rig.httpPort)",
                                    "--osc-port", "\(rig.oscPort)", "--expect", other], timeout: .seconds(120))
                let line = try #require(report.split(separator: "\n").last { $0.hasPrefix("{") }, "\(report)")
                let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let rigs = try #require(json["rigs"] as? [String: Any], "\(line)")
                let links = rigs["links"] as? [[String: Any]] ?? []
                #expect(json["loaded"] as? Bool == true, "\(line)")
                #expect(rigs["shown"] as? Bool == true && rigs["label"] as? String == "Other rigs", "\(line)")
                #expect(links.contains { $0["name"] as? String == other
                    && $0["href"] as? String == "http://127.0.0.1:\(otherRig.httpPort)/" }, "\(line)")
                #expect(!links.contains { $0["name"] as? String == own }, "not itself: \(line)")
            }
        }
    }
}
}
