@testable import Delivery
import Catalogue
import Dispatch
import Foundation
import Logging
import OSC
import Synchronization
import Testing

/// Feedback made once per change and shared by every subscriber: addresses
/// numbered once, messages encoded once, bundles put together once per
/// turn, and the addresses that keep moving sent together every 33 ms.
@Suite struct FeedbackSharingTests {
    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    static func peer(_ port: Int) -> OSCPeer {
        OSCPeer(address: SocketAddress.resolve(host: "127.0.0.1", port: port)!, transport: .udp)
    }

    static let moved = [OSCMessage("/source/1/volume", [.float(0.5)]), OSCMessage("/source/1/db", [.float(-6)]),
                        OSCMessage("/source/1/fader", [.float(0.7)])]

    static func levelForms(_ messages: [OSCMessage]) -> Feedback {
        var feedback = Feedback()
        for (message, form) in zip(messages, [.linear, .decibels, .fader] as [Parameter.Form]) {
            feedback.append(message, form: form)
        }
        return feedback
    }

    @Test func anAddressIsNumberedOnceAndEncodedAsTheCodecDoes() throws {
        let table = AddressTable()
        let first = table.values(Self.levelForms(Self.moved))
        let again = table.values(Feedback(plain: [OSCMessage("/source/1/db", [.float(-3)]), OSCMessage("/ping")]))
        #expect(first.map(\.slot) == [0, 1, 2])
        #expect(again.map(\.slot) == [1, 3], "the same address keeps its number; a new one gets the next")
        #expect(table.slot("/source/1/fader") == 2 && table.count == 4)
        #expect(Set((first + again).map(\.serial)).count == 5, "each value its own serial")
        for value in first + again {
            #expect(value.bytes == OSCCodec.encode(.message(value.message)))
            #expect(value.bundledSize == 4 + value.message.encodedSize)
        }
    }

    @Test func aBundleOfEncodedValuesIsTheCodecsBundle() throws {
        let values = AddressTable().values(Feedback(plain: Self.moved + [OSCMessage("/preset/current", [.string("verse"), .int32(1)])]))
        let bytes = FeedbackHub.bundle(values)
        #expect(bytes == OSCCodec.encode(.bundle(values.map(\.message))))
        #expect(try OSCCodec.decode(bytes) == .bundle(values.map(\.message)))
        #expect(FeedbackHub.bundle([]) == OSCCodec.encode(.bundle([])))
    }

    /// Subscribers that take the same values in a turn get the same bytes;
    /// one that named its forms gets its own.
    @Test func subscribersSentTheSameValuesShareOneBundle() throws {
        let hub = FeedbackHub(logger: Self.quiet, sendEncoded: { _, _ in })
        for port in 9001...9010 { hub.subscribe(Self.peer(port), port: nil) }
        let faderOnly = hub.subscribe(Self.peer(9100), port: nil, levelForms: [.fader])
        hub.publish(Self.levelForms(Self.moved))
        let turn = hub.turn(at: .now + .seconds(1))
        #expect(turn.count == 11 && turn.allSatisfy { $0.1.count == 1 })
        let everyForm = turn.filter { $0.0 != faderOnly }.map { $0.1[0] }
        #expect(Set(everyForm).count == 1)
        #expect(try OSCCodec.decode(everyForm[0]) == .bundle(Self.moved))
        let own = try #require(turn.first { $0.0 == faderOnly }?.1.first)
        #expect(try OSCCodec.decode(own) == .bundle([Self.moved[2]]))
    }

    /// Plain subscribers share one queue: a change is queued once for all
    /// of them. One that sets a value leaves it with what waited, is not
    /// echoed its own value, loses nothing and gets nothing twice, and
    /// joins again once it has nothing of its own and 33 ms have passed.
    @Test func plainSubscribersShareOneQueueAndOneWhoSetsAValueLeavesIt() throws {
        let hub = FeedbackHub(logger: Self.quiet, sendEncoded: { _, _ in })
        let (a, b, c) = (Self.peer(9201), Self.peer(9202), Self.peer(9203))
        for peer in [a, b, c] { hub.subscribe(peer, port: nil) }
        let start = ContinuousClock.now
        #expect(hub.turn(at: start).isEmpty)
        func sharing() -> [OSCPeer: Bool] { hub.state.withLock { $0.mapValues(\.sharing) } }
        #expect(sharing() == [a: true, b: true, c: true], "all plain: all share after a turn")

        let x = OSCMessage("/source/1/volume", [.float(0.5)])
        hub.publish(Feedback(plain: [x]))
        let queued = hub.state.withLock { subscribers in
            (hub.sharedQueue?.pending.count ?? 0, subscribers.values.allSatisfy(\.pending.isEmpty))
        }
        #expect(queued == (1, true), "queued once, in the shared queue alone")
        let y = OSCMessage("/source/2/volume", [.float(0.3)]), z = OSCMessage("/source/3/mute", [.int32(1)])
        hub.noteOwnValue(y, from: a)
        #expect(sharing() == [a: false, b: true, c: true], "a set a value: on its own, with x")
        hub.publish(Feedback(plain: [y, z]))
        var got: [OSCPeer: [OSCMessage]] = [:]
        for (peer, packets) in hub.turn(at: start + .seconds(1)) {
            for packet in packets {
                guard case .bundle(let bundle) = try OSCCodec.decode(packet) else { continue }
                got[peer, default: []] += bundle.messages
            }
        }
        #expect(got[b] == [x, y, z] && got[c] == [x, y, z])
        #expect(got[a] == [x, z], "a is not echoed its own value, and loses nothing")
        #expect(hub.turn(at: start + .seconds(2)).isEmpty, "nothing twice")
        #expect(sharing() == [a: true, b: true, c: true], "a joins again")
    }

    /// The last subscriber to leave the shared queue while it still holds
    /// a value (one waiting out its 33 ms) takes that value with it, and
    /// the queue, no one's now, does not keep anyone from sharing again.
    @Test func aQueueLeftWithAValueWaitingDoesNotStopSharing() throws {
        let hub = FeedbackHub(logger: Self.quiet, sendEncoded: { _, _ in })
        let a = Self.peer(9301)
        hub.subscribe(a, port: nil)
        let start = ContinuousClock.now
        #expect(hub.turn(at: start).isEmpty)
        let first = OSCMessage("/source/1/volume", [.float(0.5)]), second = OSCMessage("/source/1/volume", [.float(0.6)])
        hub.publish(Feedback(plain: [first]))
        #expect(hub.turn(at: start + .seconds(1)).count == 1)
        hub.publish(Feedback(plain: [second]))
        #expect(hub.turn(at: start + .seconds(1) + .milliseconds(10)).isEmpty, "waits out its 33 ms")
        let touched = Feedback(plain: [OSCMessage("/source/2/volume", [.float(1)])])
        hub.touch(touched, by: a, touched: true)
        let sent = hub.turn(at: start + .seconds(1) + .milliseconds(50))
        let bundle = try #require(sent.first { $0.0 == a }?.1.first)
        #expect(try OSCCodec.decode(bundle) == .bundle([second]), "the waiting value went with it")
        #expect(hub.state.withLock { _ in hub.sharedQueue == nil }, "no one's queue is gone")
        hub.touch(touched, by: a, touched: false)
        _ = hub.turn(at: start + .seconds(2))
        _ = hub.turn(at: start + .seconds(3))
        #expect(hub.state.withLock { $0[a]?.sharing == true && hub.sharedQueue != nil }, "shares again")
    }

    /// An address that has not changed for 33 ms wakes the thread; one
    /// that keeps moving waits for the next turn, where it can go again.
    @Test func onlyAQuietAddressIsFresh() {
        let hub = FeedbackHub(logger: Self.quiet, sendEncoded: { _, _ in })
        let table = hub.addresses
        let start = ContinuousClock.now
        #expect(hub.noteChanges(table.values(Feedback(plain: [Self.moved[0]])), at: start))
        #expect(!hub.noteChanges(table.values(Feedback(plain: [Self.moved[0]])), at: start + .milliseconds(16)))
        #expect(hub.noteChanges(table.values(Feedback(plain: [Self.moved[0], Self.moved[1]])), at: start + .milliseconds(20)),
                "a new address among them")
        #expect(hub.noteChanges(table.values(Feedback(plain: [Self.moved[0]])), at: start + .milliseconds(60)))
    }

    /// Four faders dragged at 60 messages a second, each from its own
    /// moment: their updates travel together, about one datagram per 33 ms
    /// rather than one per fader, and no address goes more than 30 times a
    /// second. The thread as `serve` runs it.
    @Test func addressesThatKeepMovingTravelTogether() {
        let sent = Mutex<[[UInt8]]>([])
        let hub = FeedbackHub(logger: Self.quiet, sendEncoded: { bytes, _ in sent.withLock { $0.append(bytes) } })
        hub.subscribe(Self.peer(9001), port: nil)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            hub.run()
            finished.signal()
        }
        let start = ContinuousClock.now
        let seconds = 1.0
        var step = 0
        while ContinuousClock.now - start < .seconds(seconds) {
            // Fader k moves at 4k ms past each 16 ms.
            let fader = step % 4 + 1
            hub.publish([OSCMessage("/source/\(fader)/fader", [.float(Float(step) / 1000)])])
            step += 1
            _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(4))
        }
        _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(100))
        hub.stop()
        finished.wait()
        let packets = sent.withLock { $0 }.compactMap { try? OSCCodec.decode($0) }
        let turns = Int(seconds / 0.033) + 1
        var updates: [String: Int] = [:]
        for message in packets.flatMap(\.messages) { updates[message.address, default: 0] += 1 }
        #expect(updates.count == 4)
        #expect(updates.values.allSatisfy { $0 <= turns + 1 }, "at most 30 a second each: \(updates)")
        // One datagram a turn, and one for each fader's first move.
        #expect(packets.count <= turns + 4, "\(packets.count) datagrams for \(updates.values.reduce(0, +)) updates")
        // The last value of each fader arrived.
        var last: [String: [OSCArgument]] = [:]
        for message in packets.flatMap(\.messages) { last[message.address] = message.arguments }
        for fader in 1...4 {
            let final = (0..<step).last { $0 % 4 + 1 == fader }.map { Float($0) / 1000 }
            #expect(last["/source/\(fader)/fader"] == final.map { [.float($0)] })
        }
    }
}
