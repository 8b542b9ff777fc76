import Logging
import OSC
import Synchronization
import SystemSupport

/// The feedback thread's turns: what is due for each subscriber now, within
/// its pace, coalesced and bundled, and whether what a client set comes back
/// to it unchanged (not echoed).
extension FeedbackHub {
    /// The forms other than `message`'s of the value a client has just set,
    /// noted as its own (not echoed) where it takes them; only while the
    /// rig holds the value as sent: a value clamped goes back in every form.
    func noteOtherForms(of message: OSCMessage, _ held: Feedback, into subscriber: Subscriber,
                        at now: ContinuousClock.Instant) {
        guard let sent = held.messages.first(where: { $0.address == message.address }),
              Self.sameValue(message.arguments, sent.arguments) else { return }
        for (other, form) in zip(held.messages, held.forms)
        where form != .plain && other.address != message.address && subscriber.takes(form) {
            subscriber.ownValues[addresses.slot(other.address)] = (other.arguments, now)
        }
    }

    /// Whether feedback carries what the client sent: numbers compared as
    /// numbers (a toggle sent as `f 1` comes back as `i 1`), to within what
    /// a round trip through the fader law moves them.
    static func sameValue(_ sent: [OSCArgument], _ kept: [OSCArgument]) -> Bool {
        guard sent.count >= kept.count else { return false }
        return zip(sent, kept).allSatisfy { a, b in
            if case .string(let x) = a, case .string(let y) = b { return x == y }
            guard let x = Self.numeric(a), let y = Self.numeric(b) else { return false }
            return abs(x - y) <= 1e-4 * max(1, abs(x))
        }
    }

    private static func numeric(_ argument: OSCArgument) -> Double? {
        if case .bool(let on) = argument { return on ? 1 : 0 }
        return argument.number
    }

    /// Takes, for each subscriber, the bundles to send now, as many as its
    /// pace allows: as packets (tests; `run` sends `turn`'s bytes).
    package func due(at now: ContinuousClock.Instant) -> [(OSCPeer, [OSCPacket])] {
        turn(at: now).map { destination, datagrams in
            (destination, datagrams.compactMap { try? OSCCodec.decode($0) })
        }
    }

    /// Takes, for each subscriber, the bundles to send now, as many as its
    /// pace allows, encoded. Subscribers sent the same values in a turn (all
    /// those that take every form and are not holding anything back) are
    /// sent the same bytes, put together once.
    func turn(at now: ContinuousClock.Instant) -> [(OSCPeer, [[UInt8]])] {
        var built: [[UInt64]: [UInt8]] = [:]
        return taken(at: now).map { destination, packets in
            (destination, packets.map { values in
                let serials = values.map(\.serial)
                if let bytes = built[serials] { return bytes }
                let bytes = Self.bundle(values)
                built[serials] = bytes
                return bytes
            })
        }
    }

    /// A bundle (at once) of `values`, as `OSCCodec` writes one: "#bundle",
    /// the time tag, then each message's size (big-endian) and bytes.
    static func bundle(_ values: [FeedbackValue]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.reduce(bundleHeader.count) { $0 + $1.bundledSize })
        bytes.append(contentsOf: bundleHeader)
        for value in values {
            let size = UInt32(value.bytes.count)
            bytes.append(contentsOf: [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)])
            bytes.append(contentsOf: value.bytes)
        }
        return bytes
    }

    /// "#bundle\0" and the time tag meaning "at once" (OSC 1.0: seconds 0, fraction 1).
    static let bundleHeader: [UInt8] = Array("#bundle".utf8) + [0] + [0, 0, 0, 0, 0, 0, 0, 1]

    /// For each subscriber, the values of the bundles to send now.
    private func taken(at now: ContinuousClock.Instant) -> [(OSCPeer, [[FeedbackValue]])] {
        // Streams' room is asked outside the lock: it is the server's to tell.
        let streams = state.withLock { subscribers in
            subscribers.compactMap { $0.value.pace == .stream && !$0.value.order.isEmpty ? $0.key : nil }
        }
        var rooms: [OSCPeer: Int] = [:]
        for destination in streams { rooms[destination] = min(room(destination), Self.streamPacketsPerTurn) }
        return state.withLock { subscribers in
            var result: [(OSCPeer, [[FeedbackValue]])] = []
            if let lease {
                // (Not the rig's own MIDI controllers: a fader left alone all night still follows.)
                let lapsed = subscribers.compactMap { !$0.key.isSurface && now - $0.value.lastSeen > lease ? $0.key : nil }
                for destination in lapsed {
                    logger.info("\(destination): feedback subscription lapsed (nothing heard for \(lease))")
                    subscribers.removeValue(forKey: destination)
                }
            }
            var waiting = takeShared(from: subscribers, now: now, into: &result)
            for (destination, subscriber) in subscribers where subscriber.awaitingFullState == nil && !subscriber.sharing {
                // Nothing it waits for can go before `nextDue`: passed by.
                if let next = subscriber.nextDue, now < next { continue }
                let budget = Self.budget(subscriber, room: rooms[destination], now: now,
                                         stallsEnd: !destination.isWebSocket && !destination.isSurface)
                let packets = Self.take(from: subscriber, now: now, budget: budget)
                if case .datagrams = subscriber.pace { subscriber.allowance -= Double(packets.count) }
                if !packets.isEmpty { result.append((destination, packets)) }
                guard !subscriber.order.isEmpty else { continue }
                // Held back by its pace, not only by coalescing (an address
                // sent in the last 33 ms waits its turn at the normal tick).
                if packets.count >= budget {
                    waiting = true
                    subscriber.nextDue = nil
                }
            }
            joinSharing(subscribers, now: now)
            behind.store(waiting, ordering: .relaxed)
            return result
        }
    }

    /// How many packets a subscriber may be sent now: what its datagram
    /// allowance has grown to, or what its stream has room for. `stallsEnd`
    /// (TCP): a stream without room for `streamStall` is given one packet,
    /// which the server's write timeout cuts off if it is still not read. A
    /// WebSocket is not: its queue would only drop its oldest frame.
    static func budget(_ subscriber: Subscriber, room: Int?, now: ContinuousClock.Instant,
                       stallsEnd: Bool = true) -> Int {
        switch subscriber.pace {
        case .datagrams(let rate, let burst):
            let elapsed = now - subscriber.refilled
            let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            subscriber.allowance = min(burst, subscriber.allowance + rate * max(0, milliseconds))
            subscriber.refilled = now
            return Int(subscriber.allowance)
        case .stream:
            guard let room, !subscriber.order.isEmpty else { return 0 }
            if room > 0 {
                subscriber.stalled = nil
                return room
            }
            guard let since = subscriber.stalled else {
                subscriber.stalled = now
                return 0
            }
            guard stallsEnd, now - since >= streamStall else { return 0 }
            subscriber.stalled = now
            return 1
        }
    }

    /// Send times kept beyond twice those of the last 33 ms before the
    /// older are cleared; and the room an empty queue keeps.
    static let sendTimesKept = 64

    /// Packs due messages (not sent in the last 33 ms) into bundles of at
    /// most 1400 bytes, at most `budget` of them; the rest waits, in order,
    /// and the subscriber's `nextDue` says when the first of it can go.
    static func take(from subscriber: Subscriber, now: ContinuousClock.Instant, budget: Int) -> [[FeedbackValue]] {
        // What no longer matters: own values past the echo window, and send
        // times past the 33 ms (a full state leaves one per address of the
        // rig: cleared each time they have doubled, so at a cost per send).
        // The tables stay small: every turn looks up each waiting address
        // in them, for every subscriber, and a table the size of a full
        // state (13,000 addresses at 64x64, 64 subscribers) makes each of
        // those lookups a miss in the processor's caches.
        if !subscriber.ownValues.isEmpty {
            subscriber.ownValues = subscriber.ownValues.filter { now - $0.value.at <= echoWindow }
        }
        if subscriber.lastSent.count > 2 * subscriber.lastSentKept + Self.sendTimesKept {
            subscriber.lastSent = subscriber.lastSent.filter { now - $0.value < minimumInterval }
            subscriber.lastSentKept = subscriber.lastSent.count
        }
        guard budget > 0 else { return [] }
        var packets: [[FeedbackValue]] = []
        var bundle: [FeedbackValue] = []
        var size = bundleHeader.count
        var kept: [Int32] = []
        var nextDue: ContinuousClock.Instant?
        while let slot = subscriber.order.popFirst() {
            guard let value = subscriber.pending[slot] else { continue }
            if let last = subscriber.lastSent[slot], now - last < minimumInterval {
                kept.append(slot)
                nextDue = min(nextDue ?? last + minimumInterval, last + minimumInterval)
                continue
            }
            let length = value.bundledSize
            if size + length > datagramLimit && !bundle.isEmpty {
                packets.append(bundle)
                bundle = []
                size = bundleHeader.count
                if packets.count == budget {
                    kept.append(slot)
                    break
                }
            }
            bundle.append(value)
            size += length
            subscriber.pending.removeValue(forKey: slot)
            subscriber.lastSent[slot] = now
        }
        if !bundle.isEmpty { packets.append(bundle) }
        subscriber.order.putBack(kept)
        // A full state sent: its table's room goes with it.
        if subscriber.pending.isEmpty && subscriber.pending.capacity > Self.sendTimesKept {
            subscriber.pending = [:]
        }
        subscriber.nextDue = nextDue
        return packets
    }
}

extension OSCPeer {
    var isWebSocket: Bool {
        if case .webSocket = transport { return true }
        return false
    }
}
