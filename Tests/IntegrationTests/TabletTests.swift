import Foundation
import Testing

extension Integration {
/// A TouchOSC-style tablet: floats everywhere, a fader dragged under a finger.
@Suite struct TabletTests {
    @Test("A fader being dragged is not sent its own values back; the other forms and other clients still hear them")
    func aDragIsNotEchoed() async throws {
        try await withRig { rig in
            let tablet = try OSCTestClient(target: .init(port: rig.oscPort))
            let other = try OSCTestClient(target: .init(port: rig.oscPort))
            defer { tablet.close(); other.close() }
            for client in [tablet, other] { try client.send("/subscribe") }
            _ = try await tablet.collect(for: .milliseconds(400))
            _ = try await other.collect(for: .milliseconds(10))
            // 30 positions at 60 a second, as a finger drags a fader down.
            for step in 0..<30 {
                try tablet.send("/source/1/fader", .float(0.75 - Float(step) * 0.01))
                try await Task.sleep(for: .milliseconds(16))
            }
            let heard = try await tablet.collect(for: .milliseconds(300))
            #expect(!heard.contains { $0.address == "/source/1/fader" }, "echoed: \(heard.filter { $0.address == "/source/1/fader" })")
            #expect(heard.contains { $0.address == "/source/1/db" }, "the dB form still comes")
            let others = try await other.collect(for: .milliseconds(100)).filter { $0.address == "/source/1/fader" }
            let last = others.last?.argument(0)?.floatValue ?? 0
            #expect(abs(last - 0.46) < 1e-4, "\(others.suffix(3))")

            // A value the rig keeps differently (clamped) is sent back, even at once.
            try tablet.send("/source/1/volume", .float(9))
            let clamped = try await tablet.waitFor(address: "/source/1/volume")
            #expect(clamped.arguments == [.float(4)])
        }
    }
}
}

extension Integration {
/// `--auto-subscribe`: a layout that sends no special message stays in sync,
/// and one-shot scripts leave nothing behind.
@Suite struct AutoSubscribeTests {
    @Test("A client that changes something is subscribed (changes, not the full state); one-shots are dropped once gone")
    func aChangeSubscribes() async throws {
        try await withRig(arguments: ["--auto-subscribe"]) { rig in
            let tablet = try OSCTestClient(target: .init(port: rig.oscPort))
            defer { tablet.close() }
            try tablet.send("/source/1/pan", .float(0.5))
            try await Task.sleep(for: .milliseconds(200))
            // One-shot scripts change things too: liblo's oscsend and crosspoint send.
            let oscsend = try ChildProcess(executable: "oscsend",
                                           arguments: ["localhost", "\(rig.oscPort)", "/source/2/mute", "i", "1"])
            #expect(try await oscsend.waitForExit() == .exited(0))
            #expect(try await rig.send(["/source/2/pan", "-0.5"], wait: 0).status == .exited(0))
            // Another client's change reaches the tablet: it is subscribed,
            // without the full state (no crosspoint it did not hear change).
            try await rig.sendAndSettle("/matrix/2/1", .float(0.25))
            let heard = try await tablet.waitFor(address: "/matrix/2/1", timeout: .seconds(3))
            #expect(heard.arguments == [.float(0.25)])
            let all = try await tablet.collect(for: .milliseconds(300)) + [heard]
            #expect(!all.contains { $0.address == "/matrix/1/1" }, "the full state was sent")
            // The one-shots' sockets are gone: the changes met closed ports, so
            // the tablet is left, and the test's own client, subscribed by its
            // changes.
            var count: [OSCTestClient.Argument] = []
            for _ in 0..<20 {
                try await rig.sendAndSettle("/source/1/pan", .float(Float.random(in: -1...1)))
                try rig.osc.send("/status")
                count = try await rig.osc.waitFor(address: "/status/subscribers").arguments
                if count == [.int32(2)] { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(count == [.int32(2)])
            #expect(rig.crosspoint.standardError.contains("subscribed to feedback by its change"))
        }
    }
}
}
