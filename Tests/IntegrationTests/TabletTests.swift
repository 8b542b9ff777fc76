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
