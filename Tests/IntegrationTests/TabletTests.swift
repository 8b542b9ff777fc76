import Foundation
import Testing

extension Integration {
/// A TouchOSC-style tablet: floats everywhere, a fader dragged under a finger.
@Suite struct TabletTests {
    @Test("A touched parameter is not fed back to the toucher, who gets its value on release; /z, /touch, pages and the accelerometer get no reply")
    func touchHoldsFeedbackUntilRelease() async throws {
        try await withRig { rig in
            let tablet = try OSCTestClient(target: .init(port: rig.oscPort))
            let other = try OSCTestClient(target: .init(port: rig.oscPort))
            defer { tablet.close(); other.close() }
            // A TouchOSC button subscribes with a float, press then release.
            try tablet.send("/subscribe", .float(1))
            try tablet.send("/subscribe", .float(0))
            try other.send("/subscribe")
            _ = try await tablet.collect(for: .milliseconds(400))
            _ = try await other.collect(for: .milliseconds(10))

            try tablet.send("/source/1/fader/z", .float(1))
            try tablet.send("/2")
            try tablet.send("/accxyz", .float(0.1), .float(-0.2), .float(0.98))
            try await Task.sleep(for: .milliseconds(100))
            // Someone else moves it while the finger is on it.
            try other.send("/source/1/volume", .float(0.5))
            #expect(try await other.waitFor(address: "/source/1/fader").arguments.count == 1, "others hear it")
            let held = try await tablet.collect(for: .milliseconds(300))
            #expect(!held.contains { ["/source/1/volume", "/source/1/db", "/source/1/fader"].contains($0.address) },
                    "fed back under the finger: \(held)")
            #expect(!held.contains { $0.address == "/error" }, "\(held)")

            // Lifted: its value, once, in every form.
            try tablet.send("/source/1/fader/z", .float(0))
            let volume = try await tablet.waitFor(address: "/source/1/volume")
            #expect(volume.arguments == [.float(0.5)])
            _ = try await tablet.waitFor(address: "/source/1/db")
            _ = try await tablet.waitFor(address: "/source/1/fader")
            // The other spelling, with T/F.
            try tablet.send("/source/2/pan/touch", .true)
            try tablet.send("/source/2/pan/touch", .false)
            _ = try await tablet.waitFor(address: "/source/2/pan")
            let after = try await tablet.collect(for: .milliseconds(200))
            #expect(!after.contains { $0.address == "/error" }, "\(after)")
            let log = rig.crosspoint.standardError
            #expect(!log.contains("/z") && !log.contains("accxyz") && !log.contains("rejected /2"), "\(log)")
        }
    }

    @Test("ADDRESS/current answers where a fading parameter is now; the plain address answers its target")
    func currentValueDuringAFade() async throws {
        try await withRig { rig in
            try rig.osc.send("/source/1/db", .float(-40), .float(2))
            try await Task.sleep(for: .milliseconds(700))
            try rig.osc.send("/source/1/db/current")
            let now = try await rig.osc.waitFor(address: "/source/1/db/current")
            let value = try #require(now.argument(0)?.floatValue)
            #expect(value < -3 && value > -30, "\(value) dB a third of the way from 0 to -40 dB")
            try rig.osc.send("/source/1/db")
            #expect(try await rig.osc.waitFor(address: "/source/1/db").arguments == [.float(-40)])
            try rig.osc.send("/source/1/db/current", .float(1))
            #expect(try await rig.osc.waitFor(address: "/error").arguments == [.string("/source/1/db/current"), .string("query only")])
            try await Task.sleep(for: .milliseconds(1500))
            try rig.osc.send("/source/1/db/current")
            #expect(try await rig.osc.waitFor(address: "/source/1/db/current").arguments == [.float(-40)])
        }
    }

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

            // A fade it starts itself ends on its own value, and that final
            // value reaches it: the moving values in between came since.
            try tablet.send("/source/2/db", .float(-6), .float(0.3))
            let fade = try await tablet.collect(for: .milliseconds(700)).filter { $0.address == "/source/2/db" }
            #expect(fade.count >= 3, "\(fade)")
            #expect(fade.last?.arguments == [.float(-6)], "\(fade.suffix(2))")

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
