import Foundation
import Testing

extension Integration {
/// Moving fades: subscribers see a fading parameter move along the curve the
/// audio follows, ending exactly on its target; queries answer the target.
@Suite struct MovingFadeTests {
    /// The console fader law, written plainly: dB at fader position f.
    static func decibels(position f: Double) -> Double {
        f >= 0.5 ? 40 * f - 30 : f >= 0.25 ? 80 * f - 50 : f >= 0.0625 ? 160 * f - 70 : 480 * f - 90
    }

    @Test("A 2 s fade reaches a subscriber as at least 20 moving values on the fader law, ending on the target")
    func aFadeIsShownMoving() async throws {
        try await withRig { rig in
            let tablet = try OSCTestClient(target: .init(port: rig.oscPort))
            defer { tablet.close() }
            try tablet.send("/subscribe")
            _ = try await tablet.collect(for: .milliseconds(500))

            // 0 dB (position 0.75) to −20 dB (0.375) over 2 s: across two
            // segments of the law, so even in position is not even in dB,
            // nor in gain.
            let sent = ContinuousClock.now
            try rig.osc.send("/source/1/db", .float(-20), .float(2))
            // Read as it arrives (each message's time is when it was read).
            async let listening = tablet.collect(for: .milliseconds(2600))
            try await Task.sleep(for: .milliseconds(800))
            // Midway, a query answers the target.
            try rig.osc.send("/source/1/db")
            #expect(try await rig.osc.waitFor(address: "/source/1/db").arguments == [.float(-20)])
            let heard = try await listening
            let moving = heard.filter { $0.address == "/source/1/db" }
            #expect(moving.count >= 20, "\(moving.count) moving values")

            // Each value lies within 0.5 dB of the law's curve at the time it
            // was worked out: at most 100 ms before it was read here (the
            // fade starts a little after it was sent).
            func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18 }
            func expected(_ t: Double) -> Double { Self.decibels(position: 0.75 - 0.375 * min(max(t / 2, 0), 1)) }
            var previous = Double.infinity
            for message in moving {
                let value = Double(message.argument(0)?.floatValue ?? .nan)
                let read = seconds(message.receivedAt - sent)
                let times = stride(from: read - 0.1, through: read, by: 0.005)
                let nearest = times.map { abs(expected($0) - value) }.min() ?? .infinity
                #expect(nearest <= 0.5, "\(value) dB read \(read) s after sending: \(nearest) dB off the law")
                #expect(value <= previous, "the level rose during the fade: \(previous) then \(value)")
                previous = value
            }
            // It ends exactly on the target, in every form.
            #expect(moving.last?.arguments == [.float(-20)])
            try rig.osc.send("/source/1/volume")
            let target = try await rig.osc.waitFor(address: "/source/1/volume").arguments
            #expect(heard.last { $0.address == "/source/1/volume" }?.arguments == target)
        }
    }

    @Test("A plain change is fed back at once, as its target")
    func aPlainChangeIsFedBackAtOnce() async throws {
        try await withRig { rig in
            let tablet = try OSCTestClient(target: .init(port: rig.oscPort))
            defer { tablet.close() }
            try tablet.send("/subscribe")
            _ = try await tablet.collect(for: .milliseconds(500))
            try rig.osc.send("/source/2/pan", .float(0.5))
            let heard = try await tablet.collect(for: .milliseconds(400)).filter { $0.address == "/source/2/pan" }
            #expect(heard.map(\.arguments) == [[.float(0.5)]])
        }
    }
}
}
