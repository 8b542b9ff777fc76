import Foundation
import Testing

extension Integration {
/// Feedback that lasts: a subscription ends on `/unsubscribe`, when its
/// connection closes, or when its client is shown to be gone, never because
/// the client was quiet; and many clients behind one host all get it.
@Suite struct LastingFeedbackTests {
    @Test("oscdump, listen-only, still hears changes after a quiet stretch longer than the old 30 s lease")
    func aListenOnlySubscriberStaysInSync() async throws {
        try await withRig { rig in
            let listener = try await Oscdump.start()
            let oscdump = listener.process
            defer { oscdump.terminate() }
            // A script subscribes on oscdump's behalf, once; oscdump never sends.
            let script = try OSCTestClient(target: .init(port: rig.oscPort))
            try script.send("/subscribe", .int32(Int32(listener.port)))
            try await oscdump.waitForOutput(containing: "/matrix/1/2 f 0", timeout: .seconds(5))
            script.close()

            try await Task.sleep(for: .seconds(31))
            let mark = oscdump.outputMark()
            try await rig.sendAndSettle("/source/2/pan", .float(-0.5))
            try await oscdump.waitForOutput(containing: "/source/2/pan f -0.5", after: mark, timeout: .seconds(5))
            #expect(!rig.crosspoint.standardError.contains("lapsed"))
        }
    }

    @Test("A subscriber whose socket is closed is dropped at the first send (ICMP port unreachable)")
    func aClientThatIsGoneLosesItsSubscriptions() async throws {
        try await withRig { rig in
            let tablet = try OSCTestClient(target: .init(port: rig.oscPort))
            let tabletPort = tablet.localEndpoint.port
            try tablet.send("/subscribe")
            try tablet.send("/meters/subscribe", .float(20))
            _ = try await tablet.waitFor(address: "/matrix/1/1", timeout: .seconds(2))
            try rig.osc.send("/status")
            #expect(try await rig.osc.waitFor(address: "/status/subscribers").arguments == [.int32(1)])
            #expect(try await rig.osc.waitFor(address: "/status/meter_subscribers").arguments == [.int32(1)])
            tablet.close()

            // Meters go out every 50 ms and feedback on the next change: each
            // meets a closed port, and the kernel says so.
            try await rig.sendAndSettle("/source/1/pan", .float(0.5))
            var counts: [OSCTestClient.Argument] = []
            for _ in 0..<20 {
                try await Task.sleep(for: .milliseconds(100))
                try rig.osc.send("/status")
                let feedback = try await rig.osc.waitFor(address: "/status/subscribers")
                let meters = try await rig.osc.waitFor(address: "/status/meter_subscribers")
                counts = feedback.arguments + meters.arguments
                if counts == [.int32(0), .int32(0)] { break }
            }
            #expect(counts == [.int32(0), .int32(0)], "subscribers, meter subscribers left: \(counts)")
            let log = rig.crosspoint.standardError
            #expect(log.contains("127.0.0.1:\(tabletPort): gone; feedback subscription ended"), "\(log)")
            #expect(log.contains("127.0.0.1:\(tabletPort): gone; meter subscription ended"), "\(log)")
        }
    }

    /// The kernel keeps reporting an unread ICMP error until it is read: the
    /// receiving thread must read it whichever thread's send met it first,
    /// or it spins on `poll` at a full core.
    @Test("A subscriber gone among others is dropped, and the OSC receiving thread is idle again")
    func theReceivingThreadDoesNotSpinOnAnError() async throws {
        try await withRig { rig in
            // Ten that stay and one that goes: the feedback thread's next send
            // after the one that meets the closed port usually takes the
            // error, and only the error queue still says so.
            var staying: [OSCTestClient] = []
            defer { staying.forEach { $0.close() } }
            for _ in 0..<10 {
                let client = try OSCTestClient(target: .init(port: rig.oscPort))
                staying.append(client)
                try client.send("/subscribe")
            }
            let gone = try OSCTestClient(target: .init(port: rig.oscPort))
            try gone.send("/subscribe")
            _ = try await gone.waitFor(address: "/matrix/2/2", timeout: .seconds(2))
            for client in staying { _ = try await client.waitFor(address: "/matrix/2/2", timeout: .seconds(2)) }
            gone.close()
            try await rig.sendAndSettle("/source/1/pan", .float(0.25))
            try await Task.sleep(for: .milliseconds(500))
            try rig.osc.send("/status")
            #expect(try await rig.osc.waitFor(address: "/status/subscribers").arguments == [.int32(10)])
            func receivingThreadTicks() throws -> Int {
                let tasks = "/proc/\(rig.crosspoint.pid)/task"
                for task in try FileManager.default.contentsOfDirectory(atPath: tasks) {
                    let name = (try? String(contentsOfFile: "\(tasks)/\(task)/comm", encoding: .utf8)) ?? ""
                    guard name.hasPrefix("osc-udp") else { continue }
                    // utime and stime: fields 14 and 15 of stat, after the name in parentheses.
                    let stat = try String(contentsOfFile: "\(tasks)/\(task)/stat", encoding: .utf8)
                    let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
                    return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
                }
                throw RigError("no osc-udp thread")
            }
            let before = try receivingThreadTicks()
            try await Task.sleep(for: .seconds(2))
            let used = try receivingThreadTicks() - before
            // Clock ticks are 1/100 s: a spinning thread takes about 200 in 2 s.
            #expect(used < 50, "osc-udp took \(used) ticks of CPU in 2 s while nothing came in")
        }
    }

    @Test("A TCP subscriber's subscription ends with its connection")
    func aClosedConnectionEndsItsSubscription() async throws {
        try await withRig { rig in
            let connection = try TCPOSCConnection(port: rig.oscPort)
            try connection.send(.message(.init("/subscribe")))
            _ = try connection.receive()
            try rig.osc.send("/status")
            #expect(try await rig.osc.waitFor(address: "/status/subscribers").arguments == [.int32(1)])
            connection.close()
            var count: [OSCTestClient.Argument] = []
            for _ in 0..<20 {
                try await Task.sleep(for: .milliseconds(100))
                try rig.osc.send("/status")
                count = try await rig.osc.waitFor(address: "/status/subscribers").arguments
                if count == [.int32(0)] { break }
            }
            #expect(count == [.int32(0)])
        }
    }

    @Test("20 clients behind one host all get feedback; past 64 sessions (meters counted too) the least recently heard makes room")
    func manyClientsBehindOneHost() async throws {
        try await withRig { rig in
            var clients: [OSCTestClient] = []
            defer { clients.forEach { $0.close() } }
            for _ in 0..<20 {
                let client = try OSCTestClient(target: .init(port: rig.oscPort))
                clients.append(client)
                try client.send("/subscribe")
            }
            for client in clients { _ = try await client.waitFor(address: "/matrix/2/2", timeout: .seconds(5)) }
            try await rig.sendAndSettle("/matrix/2/1", .float(0.25))
            for client in clients {
                let heard = try await client.waitFor(address: "/matrix/2/1", timeout: .seconds(5)) { $0.arguments == [.float(0.25)] }
                #expect(heard.arguments == [.float(0.25)])
            }
            #expect(!rig.crosspoint.standardError.contains("too many"))

            // 40 more for feedback and 10 for meters alone: 70 sessions from
            // this host, so the 6 heard least recently (the first 6) make room.
            for index in 0..<50 {
                let client = try OSCTestClient(target: .init(port: rig.oscPort))
                clients.append(client)
                try client.send(index < 40 ? "/subscribe" : "/meters/subscribe")
            }
            try await Task.sleep(for: .milliseconds(500))
            try rig.osc.send("/status")
            #expect(try await rig.osc.waitFor(address: "/status/subscribers").arguments == [.int32(54)])
            #expect(try await rig.osc.waitFor(address: "/status/meter_subscribers").arguments == [.int32(10)])
            for client in clients[..<6] {
                #expect(rig.crosspoint.standardError.contains(
                    "127.0.0.1:\(client.localEndpoint.port): subscriptions ended to make room"))
            }
        }
    }
}
}
