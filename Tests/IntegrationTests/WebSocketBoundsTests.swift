#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

extension Integration {
/// A WebSocket client that stops reading holds at most 1 MiB of the rig's
/// memory, loses its oldest meters first, and is closed after 10 s; what it
/// held goes back to the system (docs/access.md, "WebSockets").
@Suite(.serialized) struct WebSocketBoundsTests {
    static func residentMiB(_ pid: Int32) -> Double {
        Double(Integration.HTTPBoundsTests.residentKiB(pid)) / 1024
    }

    @Test func sixtyMeterWebSocketsThatNeverReadHoldUnder100MB() async throws {
        // Started small and grown: the test's JACK server has room for the
        // rig's 1,024 ports, not for its probes' 1,024 more.
        try await withRig { rig in
            try rig.osc.send("/rig/inputs", .int32(512))
            try rig.osc.send("/rig/outputs", .int32(512))
            var described = false
            let asked = ContinuousClock.now
            while !described && ContinuousClock.now - asked < .seconds(120) {
                try await Task.sleep(for: .seconds(1))
                let node = try ChildProcess(executable: "curl", arguments: ["-s", "-o", "/dev/null", "-w", "%{http_code}",
                                                                            "http://127.0.0.1:\(rig.httpPort)/matrix/512/512"])
                _ = try await node.waitForExit(timeout: .seconds(10))
                described = node.standardOutput == "200"
            }
            try #require(described, "OSCQuery describes 512x512")
            // Measured from where the rig settles after growing: three
            // readings a second apart within 2 MB (building the namespace
            // of 512x512 takes a debug build a while, and its memory goes
            // back once it is in force).
            var readings: [Double] = []
            for _ in 0..<90 {
                readings = (readings + [Self.residentMiB(rig.crosspoint.pid)]).suffix(3)
                if readings.count == 3, readings.max()! - readings.min()! < 2 { break }
                try await Task.sleep(for: .seconds(1))
            }
            let pid = rig.crosspoint.pid
            let before = Self.residentMiB(pid)
            var sockets: [RawWebSocket] = []
            defer { sockets.forEach { $0.close() } }
            for n in 0..<60 {
                let socket = try RawWebSocket(port: rig.httpPort, receiveBuffer: n == 0 ? 65_536 : 4096)
                try socket.send(.message(.init("/meters/subscribe", .float(60))))
                sockets.append(socket)
            }
            /// `/status/meter_subscribers` now (not from an earlier answer).
            func meterSubscribers() async throws -> Int32 {
                let asked = ContinuousClock.now
                try rig.osc.send("/status")
                let answer = try await rig.osc.waitFor(address: "/status/meter_subscribers", timeout: .seconds(5)) { $0.receivedAt >= asked }
                guard case .int32(let count) = answer.arguments.first else { return -1 }
                return count
            }
            try await Task.sleep(for: .milliseconds(500))
            let subscribed = try await meterSubscribers()
            #expect(subscribed == 60, "meter subscribers: \(subscribed)")
            // 59 read nothing: closed 10 s after their last write went out.
            // One reads a little now and then (64 KiB each time round, about
            // every 0.5 s, never more than 5.5 s apart however loaded the
            // machine: a status answer waits 5 s at most): kept, but far
            // behind, so it loses its oldest meters. (Dripped every 2 s by
            // the clock, a loaded CI machine once let 10 s pass between two
            // reads, and the rig rightly closed it.)
            let reader = sockets[0]
            var peak = before
            var subscribers: Int32 = -1
            let start = ContinuousClock.now
            while ContinuousClock.now - start < .seconds(40) {
                peak = max(peak, Self.residentMiB(pid))
                reader.drip(64 * 1024)
                try await Task.sleep(for: .milliseconds(500))
                subscribers = try await meterSubscribers()
                if subscribers <= 1 { break }
            }
            let waited = ContinuousClock.now - start
            // The reader alone now gets meters faster than it reads: 3 s more of them.
            for _ in 0..<3 {
                try await Task.sleep(for: .seconds(1))
                reader.drip(64 * 1024)
            }
            print("\(subscribers) meter subscribers left after \(ContinuousClock.now - start); peak RSS \(Int(peak)) MB from \(Int(before)) MB")
            try reader.send(.message(.init("/status")))
            let status = try reader.receive(timeout: .seconds(10)) { $0.contains { $0.address == "/status/dropped_frames" } }
            let dropped = status.last { $0.address == "/status/dropped_frames" }?.arguments.first
            print("the WebSocket that read 64 KiB now and then: /status/dropped_frames \(dropped.map { "\($0)" } ?? "none")")
            if case .int32(let count) = dropped { #expect(count > 0, "dropped \(count)") } else { Issue.record("no /status/dropped_frames") }
            sockets.forEach { $0.close() }
            sockets.removeAll()
            try await Task.sleep(for: .seconds(2))
            let after = Self.residentMiB(pid)
            print("60 meter WebSockets at 512x512 not reading: RSS \(Int(before)) MB before, peak \(Int(peak)) MB, \(Int(after)) MB after they closed; \(subscribers) meter subscribers left after \(waited)")
            #expect(subscribers == 1, "\(subscribers) meter subscribers left after \(waited)")
            #expect(peak - before < 100, "peak \(peak) MB, from \(before) MB")
            #expect(after - before < 20, "after \(after) MB, from \(before) MB")
            try await rig.ping()
        }
    }
}
}
