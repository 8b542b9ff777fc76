@testable import Delivery
import Logging
import OSC
@testable import RigControl
import Dispatch
import Foundation
import Synchronization
import Testing

/// Feedback paced by where the client is, and a large queue drained in
/// order without loss (docs/surfaces.md, "Packed and paced").
@Suite struct FeedbackPaceTests {
    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    static func peer(_ host: String, port: Int = 9000, _ transport: OSCPeer.Transport = .udp) -> OSCPeer {
        OSCPeer(address: SocketAddress.resolve(host: host, port: port)!, transport: transport)
    }

    /// 3,000 distinct addresses, about 95 bundles' worth.
    static let messages = (1...3000).map { OSCMessage("/matrix/\($0 / 64 + 1)/\($0 % 64 + 1)/fader", [.float(0.5)]) }

    static func sleep(_ seconds: Double) {
        _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(Int(seconds * 1000)))
    }

    static func count(_ packets: [OSCPacket]) -> Int {
        packets.reduce(0) { total, packet in
            if case .bundle(let bundle) = packet { total + bundle.messages.count } else { total + 1 }
        }
    }

    @Test func aClientIsPacedByWhereItIs() {
        #expect(FeedbackHub.Pace.of(Self.peer("127.0.0.1")) == .local)
        #expect(FeedbackHub.Pace.of(Self.peer("127.3.2.1")) == .local)
        #expect(FeedbackHub.Pace.of(Self.peer("::1")) == .local)
        #expect(FeedbackHub.Pace.of(Self.peer("192.0.2.7")) == .remote, "a documentation address: never this machine's")
        #expect(FeedbackHub.Pace.of(Self.peer("192.0.2.7", .tcp(1))) == .stream)
        #expect(FeedbackHub.Pace.of(Self.peer("192.0.2.7", .webSocket(1))) == .stream)
    }

    /// The full state is made off the controller's lock, after the
    /// subscription: nothing goes to the subscriber before it is queued, and
    /// a change made meanwhile is newer than the full state's value and wins.
    @Test func aChangeMadeWhileTheFullStateIsMadeWinsOverIt() {
        let hub = FeedbackHub(logger: Self.quiet, send: { _, _ in })
        let (tablet, subscription) = hub.subscribeForFullState(Self.peer("127.0.0.1"), port: nil)
        hub.publish([OSCMessage("/source/1/volume", [.float(0.25)])])
        #expect(hub.due(at: .now + .seconds(1)).isEmpty, "held until the full state is queued")
        hub.publishFullState([OSCMessage("/source/1/volume", [.float(1)]), OSCMessage("/source/2/volume", [.float(1)])],
                             to: tablet, subscription: subscription)
        let sent = hub.due(at: .now + .seconds(1)).flatMap { $0.1.flatMap(\.messages) }
        #expect(sent.map(\.address) == ["/source/1/volume", "/source/2/volume"], "each once, in the full state's order")
        #expect(sent.first?.arguments == [.float(0.25)], "with the value changed since")
    }

    /// A value the tablet itself set while its full state was made is not
    /// echoed, and not overwritten by the full state's older value either.
    @Test func theClientsOwnValueMadeMeanwhileIsNotUndoneByItsFullState() {
        let hub = FeedbackHub(logger: Self.quiet, send: { _, _ in })
        let client = Self.peer("127.0.0.1", port: 9100)
        let (tablet, subscription) = hub.subscribeForFullState(client, port: nil)
        let moved = OSCMessage("/source/1/fader", [.float(0.6)])
        hub.noteOwnValue(moved, from: client)
        hub.publish([moved])
        hub.publishFullState([OSCMessage("/source/1/fader", [.float(0.75)]), OSCMessage("/source/2/fader", [.float(0.75)])],
                             to: tablet, subscription: subscription)
        let sent = hub.due(at: .now + .seconds(1)).flatMap { $0.1.flatMap(\.messages) }
        #expect(sent.map(\.address) == ["/source/2/fader"], "neither its own value nor the older one goes back")
    }

    /// Subscribed twice before the first full state is queued: the first is
    /// older than the second and is dropped, so nothing newer is undone.
    @Test func anEarlierFullStateIsDroppedForALaterOne() {
        let hub = FeedbackHub(logger: Self.quiet, send: { _, _ in })
        let client = Self.peer("127.0.0.1")
        let (tablet, first) = hub.subscribeForFullState(client, port: nil)
        let (_, second) = hub.subscribeForFullState(client, port: nil)
        hub.publishFullState([OSCMessage("/matrix/1/1", [.float(0)])], to: tablet, subscription: first)
        #expect(hub.due(at: .now + .seconds(1)).isEmpty, "still held: the later full state is awaited")
        hub.publishFullState([OSCMessage("/matrix/1/1", [.float(1)])], to: tablet, subscription: second)
        let sent = hub.due(at: .now + .seconds(1)).flatMap { $0.1.flatMap(\.messages) }
        #expect(sent.map(\.arguments) == [[.float(1)]])
        // A full state for a subscriber that has gone is dropped.
        hub.unsubscribe(client, port: nil)
        hub.publishFullState([OSCMessage("/matrix/1/1", [.float(0)])], to: tablet, subscription: second)
        #expect(hub.count == 0 && hub.due(at: .now + .seconds(2)).isEmpty)
    }

    @Test func eachPaceTakesItsShareAndEverythingArrivesInOrder() {
        let hub = FeedbackHub(logger: Self.quiet, send: { _, _ in }, room: { _ in 5 })
        let remote = hub.subscribe(Self.peer("192.0.2.7"), port: nil)
        let local = hub.subscribe(Self.peer("127.0.0.1"), port: nil)
        let stream = hub.subscribe(Self.peer("192.0.2.8", .tcp(3)), port: nil)
        for destination in [remote, local, stream] { hub.publish(Feedback(plain: Self.messages), to: destination) }

        var now = ContinuousClock.now
        var received: [OSCPeer: [String]] = [:]
        var first: [OSCPeer: Int] = [:]
        for turn in 0..<400 {
            for (destination, packets) in hub.due(at: now) {
                if turn == 0 { first[destination] = packets.count }
                for packet in packets {
                    guard case .bundle(let bundle) = packet else { continue }
                    #expect(bundle.messages.reduce(16) { $0 + 4 + $1.encodedSize } <= FeedbackHub.datagramLimit)
                    received[destination, default: []] += bundle.messages.map(\.address)
                }
            }
            now += .milliseconds(1)
        }
        #expect(first[remote] == 10, "a remote UDP client's burst")
        #expect(first[local] == 32, "a local UDP client's burst")
        #expect(first[stream] == 5, "a stream's room")
        for destination in [remote, local, stream] {
            #expect(received[destination] == Self.messages.map(\.address), "\(destination): all, once, in order")
        }
        // Remote: 10 at once, then one a millisecond: ~95 bundles need ~85 ms more.
        let remoteOnly = FeedbackHub(logger: Self.quiet, send: { _, _ in })
        let tablet = remoteOnly.subscribe(Self.peer("192.0.2.7"), port: nil)
        remoteOnly.publish(Feedback(plain: Self.messages), to: tablet)
        let start = ContinuousClock.now
        var bundles = 0
        for step in 0...20 { bundles += remoteOnly.due(at: start + .milliseconds(step)).first?.1.count ?? 0 }
        #expect(bundles == 10 + 20, "10 at once and one for each of 20 milliseconds: \(bundles)")
    }

    @Test func aStreamWithoutRoomWaitsThenIsTriedOnce() {
        let hub = FeedbackHub(logger: Self.quiet, send: { _, _ in }, room: { _ in 0 })
        let stream = hub.subscribe(Self.peer("192.0.2.8", .tcp(3)), port: nil)
        hub.publish(Feedback(plain: Self.messages), to: stream)
        let start = ContinuousClock.now
        #expect(hub.due(at: start).isEmpty)
        #expect(hub.due(at: start + .milliseconds(999)).isEmpty)
        #expect(hub.due(at: start + .seconds(1)).first?.1.count == 1, "one bundle after a second without room")
        #expect(hub.due(at: start + .milliseconds(1500)).isEmpty)
    }

    /// A subscriber whose waiting addresses were all sent in the last 33 ms
    /// is passed by until the first can go; the latest value goes then, and
    /// an address queued meanwhile goes at once, not after it.
    @Test func aCoalescedAddressWaitsItsTurnAndANewOneDoesNot() {
        let hub = FeedbackHub(logger: Self.quiet, send: { _, _ in })
        hub.subscribe(Self.peer("127.0.0.1"), port: nil)
        func sent(_ at: ContinuousClock.Instant) -> [OSCMessage] { hub.due(at: at).flatMap { $0.1.flatMap(\.messages) } }
        let start = ContinuousClock.now
        hub.publish([OSCMessage("/source/1/fader", [.float(0.1)])])
        #expect(sent(start).map(\.arguments) == [[.float(0.1)]])
        hub.publish([OSCMessage("/source/1/fader", [.float(0.2)])])
        #expect(sent(start + .milliseconds(10)).isEmpty, "sent 10 ms ago: coalesced")
        hub.publish([OSCMessage("/source/1/fader", [.float(0.3)])])
        hub.publish([OSCMessage("/source/2/fader", [.float(0.5)])])
        #expect(sent(start + .milliseconds(12)).map(\.address) == ["/source/2/fader"], "a new address at once")
        #expect(sent(start + .milliseconds(20)).isEmpty)
        #expect(sent(start + .milliseconds(33)).map(\.arguments) == [[.float(0.3)]], "the latest value, in its turn")
        #expect(sent(start + .milliseconds(80)).isEmpty, "nothing twice")
    }

    /// The thread rests while nothing waits, still looks at moving fades
    /// every 33 ms meanwhile, and a change queued while it rests goes out.
    /// Its own thread, as `serve` runs it: a worker of the shared pool may
    /// not start at once while the rest of the suite runs beside it.
    @Test func aChangeWakesTheRestingThread() {
        let received = Mutex<[(ContinuousClock.Instant, OSCPacket)]>([])
        let hub = FeedbackHub(logger: Self.quiet, send: { packet, _ in received.withLock { $0.append((.now, packet)) } })
        hub.subscribe(Self.peer("127.0.0.1"), port: nil)
        let updates = Atomic<Int>(0)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            hub.run(everyUpdate: { _ in updates.add(1, ordering: .relaxed) })
            finished.signal()
        }
        defer {
            hub.stop()
            finished.wait()
        }
        Self.sleep(0.3)
        #expect(received.withLock { $0.isEmpty }, "nothing to send")
        #expect(updates.load(ordering: .relaxed) >= 3, "moving fades are still looked at every 33 ms while resting")
        for value in [0.25, 0.5] as [Float] {
            let published = ContinuousClock.now
            hub.publish([OSCMessage("/source/1/fader", [.float(value)])])
            // Woken, it sends within milliseconds (a quiet machine: about 1 ms); here, only that it does.
            var got: (ContinuousClock.Instant, OSCPacket)?
            while got == nil && ContinuousClock.now - published < .seconds(2) {
                Self.sleep(0.005)
                got = received.withLock { $0.last.flatMap { $0.1.messages.first?.arguments == [.float(value)] ? $0 : nil } }
            }
            #expect(got?.1.messages == [OSCMessage("/source/1/fader", [.float(value)])], "sent once woken")
        }
    }

    @Test func theQueueGivesBackWhatWasPoppedInOrder() {
        var queue = FeedbackQueue<String>()
        for n in 0..<5000 { queue.append("/\(n)") }
        var taken: [String] = []
        while !queue.isEmpty {
            var popped: [String] = []
            for _ in 0..<7 { if let address = queue.popFirst() { popped.append(address) } }
            // The first two are taken, the rest go back.
            taken += popped.prefix(2)
            queue.putBack(Array(popped.dropFirst(2)))
        }
        #expect(taken == (0..<5000).map { "/\($0)" })
    }
}
