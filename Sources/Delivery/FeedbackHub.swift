import Dispatch
import Catalogue
import Logging
import OSC
import Synchronization
import SystemSupport

/// Keeps every subscribed surface in sync: each change, whoever made it, goes
/// to every subscriber at the parameter's own address.
///
/// - A subscription lasts until `/unsubscribe`, until its connection closes,
///   or until its client is shown to be gone (`depart`: a closed TCP
///   connection, ICMP "port unreachable" on a send), never because the
///   client was quiet: a listen-only tablet stays in sync for the whole
///   show. An idle limit (`lease`) is optional.
/// - How many there may be is the controller's `SessionRoll`.
/// - No echo: a client is not sent back the value it has itself just set at
///   that same address (for `echoWindow` after its last send there), so a
///   fader under a finger over Wi-Fi is not pulled back by late copies of
///   its own values; unless the rig kept another value (clamped, or changed
///   since by someone else). The other forms of the parameter still go to
///   it, except to a subscriber that named its forms (`noteOwnValue`).
/// - A subscriber may take each level in some of its forms only
///   (`/subscribe/forms`): `Feedback` says which form each message is.
/// - Feedback is coalesced: at most 30 updates a second per address per
///   client, the latest value winning and the final value always sent.
///   What waits goes out at the thread's turns, every 33 ms (`run`): the
///   addresses that keep moving all fall due at the same turn and travel
///   in one datagram; a change at an address quiet for 33 ms wakes the
///   thread and goes at once.
/// - Each change is encoded once (`FeedbackValue`), whatever the number of
///   subscribers, and its address numbered once (`AddressTable`): the
///   subscribers' tables are keyed by that number. Subscribers that take
///   every change as it is share one queue (`FeedbackHub+Sharing`): a
///   change is queued once for all of them.
/// - It is packed into bundles that fit one UDP datagram (≤ 1400 bytes) and
///   paced by where the client is (`Pace`): a UDP client on another machine
///   (a tablet on Wi-Fi) gets at most one datagram a millisecond, 10 at
///   once (1.4 MB/s), so that a 64x64 recall reaches it whole instead of as
///   a burst of lost packets; one on this machine 8 a millisecond, 32 at
///   once (11 MB/s); a TCP connection or a WebSocket as fast as the client
///   reads (what its socket or queue has room for).
public final class FeedbackHub: @unchecked Sendable {
    public static let datagramLimit = 1400
    static let minimumInterval: Duration = .milliseconds(33) // 30 updates/s per address
    /// How long a value a client set is not echoed back to it.
    static let echoWindow: Duration = .milliseconds(500)
    /// How long a touch holds without a word from its finger (a value or
    /// another touch): a release lost on Wi-Fi must not freeze a control
    /// for the rest of the show.
    static let touchHold: Duration = .seconds(10)
    /// How often the thread looks for feedback to send: every 33 ms
    /// (`minimumInterval`, when moving fades are updated too), and every
    /// millisecond while some subscriber has more than its pace let go.
    /// A change at an address that has not changed for 33 ms (`fresh`)
    /// wakes it sooner; it then lets the rest of that packet's changes come
    /// for `busyTick` before its turn.
    static let busyTick = 0.001
    /// The most packets a stream is given in one turn (90 KB a millisecond),
    /// so that one fast reader does not hold up the others' turns.
    public static let streamPacketsPerTurn = 64
    /// A TCP connection with no room for this long, while feedback waits for
    /// it, is sent one packet anyway: a client that still does not read is
    /// then cut off by the server's write timeout (0.2 s).
    static let streamStall: Duration = .seconds(1)

    public typealias Sender = @Sendable (OSCPacket, OSCPeer) -> Void
    /// Sends a packet already encoded (as `OSCCodec` writes it).
    public typealias EncodedSender = @Sendable ([UInt8], OSCPeer) -> Void
    /// How many packets of up to `datagramLimit` bytes a stream destination
    /// (TCP, WebSocket) takes now without waiting.
    public typealias Room = @Sendable (OSCPeer) -> Int

    let send: EncodedSender
    let room: Room
    /// Every address feedback has carried, numbered.
    let addresses = AddressTable()
    /// Whether some subscriber had more feedback than its pace let go at
    /// the last turn.
    let behind = Atomic<Bool>(false)
    /// A change was queued since the last turn that could go at once
    /// (`fresh`): the thread does not wait for its next 33 ms.
    let freshQueued = Atomic<Bool>(false)
    /// The thread waits for its next turn: a fresh change wakes it through `alarm`.
    let resting = Atomic<Bool>(false)
    let alarm = DispatchSemaphore(value: 0)
    /// Nil: subscriptions never lapse for want of messages.
    let lease: Duration?
    let logger: Logger
    let state = Mutex<[OSCPeer: Subscriber]>([:])
    /// When each address last changed for everyone (under `state`'s lock),
    /// for the last 33 ms or so: an address not in it is `fresh`.
    var recentChanges: [Int32: ContinuousClock.Instant] = [:]
    var recentChangesKept = 0
    /// Subscriptions made so far (under `state`'s lock): each full state is
    /// told from the one before.
    var subscriptions = 0
    /// The queue of every subscriber that takes every change as it is
    /// (`FeedbackHub+Sharing`), under `state`'s lock: made once the first
    /// subscriber joins it.
    var sharedQueue: Subscriber?
    let stopping = Atomic<Bool>(false)

    /// `room`: for TCP and WebSocket subscribers; without it, a stream is
    /// given `streamPacketsPerTurn` packets a turn.
    public init(lease: Duration? = nil, logger: Logger, sendEncoded: @escaping EncodedSender,
                room: @escaping Room = { _ in FeedbackHub.streamPacketsPerTurn }) {
        self.lease = lease
        self.logger = logger
        self.send = sendEncoded
        self.room = room
    }

    /// As above, for a sender that takes packets: each is decoded from the
    /// bytes the hub made (tests, tools; `serve` sends the bytes).
    public convenience init(lease: Duration? = nil, logger: Logger, send: @escaping Sender,
                            room: @escaping Room = { _ in FeedbackHub.streamPacketsPerTurn }) {
        self.init(lease: lease, logger: logger, sendEncoded: { bytes, peer in
            guard let packet = try? OSCCodec.decode(bytes) else { return }
            send(packet, peer)
        }, room: room)
    }

    public var count: Int { state.withLock { $0.count } }

    /// The forms of levels `destination` asked for; nil: every form (or no such subscriber).
    public func levelForms(of destination: OSCPeer) -> Set<Parameter.Form>? {
        state.withLock { $0[destination]?.levelForms }
    }

    /// A message came from `peer`: if it is a destination whose full state
    /// waited for it to be shown alive, it is now (under `state`'s lock).
    private func provenAlive(by peer: OSCPeer,
                             in subscribers: inout [OSCPeer: Subscriber]) -> (destination: OSCPeer, subscription: Int)? {
        guard case .udp = peer.transport,
              let (destination, subscriber) = subscribers.first(where: { $0.value.fullStateOnProof && $0.key.isSamePath(as: peer) })
        else { return nil }
        subscriptions += 1
        leaveSharing(subscriber)
        subscriber.fullStateOnProof = false
        subscriber.awaitingFullState = subscriptions
        logger.info("\(destination): shown alive; its full state follows")
        return (destination, subscriptions)
    }

    /// Ends every subscription that sends to `peer`, or that a TCP
    /// connection now closed made: the client is gone.
    public func depart(_ peer: OSCPeer) {
        state.withLock { subscribers in
            let gone = subscribers.compactMap { destination, subscriber in
                destination.isSamePath(as: peer) || (subscriber.client.isSamePath(as: peer) && peer.transport != .udp)
                    ? destination : nil
            }
            for destination in gone {
                subscribers.removeValue(forKey: destination)
                logger.info("\(destination): gone; feedback subscription ended")
            }
        }
    }

    /// Runs `body` on each subscriber `matching` picks. The table itself
    /// is not changed (a subscriber is a reference), so nothing is copied.
    private static func update(_ subscribers: [OSCPeer: Subscriber],
                               where matching: (OSCPeer, Subscriber) -> Bool, _ body: (Subscriber) -> Void) {
        for (destination, subscriber) in subscribers where matching(destination, subscriber) { body(subscriber) }
    }

    /// Any message from a client renews its subscriptions: those made from
    /// its address, or sending to it. Returns their destinations, and, if
    /// the client is a destination whose full state waited for it to be
    /// shown alive, that destination and the number of its full state
    /// (`publishFullState`): it is shown alive now.
    @discardableResult
    public func renew(_ client: OSCPeer) -> (renewed: [OSCPeer], alive: (destination: OSCPeer, subscription: Int)?) {
        let now = ContinuousClock.now
        return state.withLock { subscribers in
            var renewed: [OSCPeer] = []
            for (destination, subscriber) in subscribers where subscriber.client == client || destination == client {
                subscriber.lastSeen = now
                renewed.append(destination)
            }
            return (renewed, provenAlive(by: client, in: &subscribers))
        }
    }

    /// Notes that `client` has just set `message`'s address to its value:
    /// its feedback will not echo it. Only feedback that goes back where the
    /// client sends from (its socket, connection or WebSocket): feedback a
    /// script asked for on another port is for someone else (a display, a
    /// logger), who did not make the change.
    ///
    /// A subscriber that asked for some forms of levels (`/subscribe/forms`)
    /// reads the value it set in another form than it sent: while the rig
    /// holds it as sent, it is not echoed in those forms either. `asHeld`
    /// gives the parameter in every form as the rig now holds it; it is
    /// called only for such a subscriber.
    public func noteOwnValue(_ message: OSCMessage, from client: OSCPeer, asHeld: @Sendable () -> Feedback = { Feedback() }) {
        let now = ContinuousClock.now
        let slot = addresses.slot(message.address)
        var held: Feedback?
        state.withLock { subscribers in
            Self.update(subscribers, where: { destination, _ in destination.isSamePath(as: client) }) { subscriber in
                leaveSharing(subscriber)
                subscriber.ownValues[slot] = (message.arguments, now)
                if subscriber.levelForms != nil {
                    let forms = held ?? asHeld()
                    held = forms
                    noteOtherForms(of: message, forms, into: subscriber, at: now)
                }
                // A finger that moves is still there.
                if subscriber.touching[slot] != nil {
                    for address in subscriber.touching.keys { subscriber.touching[address] = now }
                }
            }
        }
    }

    /// A finger on a parameter's control at `client`, or lifted: `values`
    /// are the parameter's messages in every form, as it stands now. While
    /// touched, feedback at those addresses does not go back where the
    /// client sends from; on release it gets `values` once.
    public func touch(_ values: Feedback, by client: OSCPeer, touched: Bool) {
        let released = touched ? [] : addresses.values(values)
        let slots = touched ? addresses.slots(values.messages.map(\.address)) : released.map(\.slot)
        let now = ContinuousClock.now
        state.withLock { subscribers in
            Self.update(subscribers, where: { destination, _ in destination.isSamePath(as: client) }) { subscriber in
                leaveSharing(subscriber)
                if touched {
                    for slot in slots { subscriber.touching[slot] = now }
                    // Their places in the queue are skipped when reached.
                    for slot in slots { subscriber.pending.removeValue(forKey: slot) }
                } else {
                    for slot in slots { subscriber.touching.removeValue(forKey: slot) }
                    for slot in slots { subscriber.ownValues.removeValue(forKey: slot) }
                    Self.enqueue(released, into: subscriber)
                }
            }
        }
        if !touched { wake() }
    }

    /// Queues feedback for every subscriber, each in the forms it takes.
    public func publish(_ feedback: Feedback) {
        // Encoded only when someone is subscribed (OSCQuery's listeners
        // alone also have changes published).
        guard !feedback.isEmpty, count > 0 else { return }
        let values = addresses.values(feedback)
        let now = ContinuousClock.now
        let fresh = state.withLock { subscribers in
            var shared = false
            for subscriber in subscribers.values {
                if subscriber.sharing { shared = true } else { Self.enqueue(values, into: subscriber) }
            }
            // Once for all those sharing the queue, whatever their number.
            if shared, let sharedQueue { Self.enqueue(values, into: sharedQueue) }
            return noteChanges(values, at: now)
        }
        if fresh { wake() }
    }

    /// Queues plain messages (status, ports, presets) for every subscriber.
    public func publish(_ messages: [OSCMessage]) {
        publish(Feedback(plain: messages))
    }

    /// Queues feedback for one subscriber.
    public func publish(_ feedback: Feedback, to destination: OSCPeer) {
        let values = addresses.values(feedback)
        state.withLock { subscribers in
            guard let subscriber = subscribers[destination] else { return }
            leaveSharing(subscriber)
            Self.enqueue(values, into: subscriber)
        }
        wake()
    }

    /// Queues a subscriber's full state, made from the rig state as it was
    /// when it subscribed, in the forms it asked for, and lets its feedback
    /// go: a value queued since (a change made meanwhile) is newer and stays.
    public func publishFullState(_ messages: [OSCMessage], to destination: OSCPeer, subscription: Int) {
        // Its queue is made before taking the lock (200,000 addresses at
        // 256x256: a tenth of a second), which every client's messages
        // (`renew`) and every turn of sending take.
        let values = addresses.values(messages, forms: Array(repeating: .plain, count: messages.count))
        var pending = [Int32: FeedbackValue](minimumCapacity: values.count)
        var order = FeedbackQueue<Int32>()
        for value in values where pending.updateValue(value, forKey: value.slot) == nil {
            order.append(value.slot)
        }
        state.withLock { subscribers in
            // Gone, or subscribed again since: a newer full state follows.
            guard let waiting = subscribers[destination], waiting.awaitingFullState == subscription else { return }
            leaveSharing(waiting)
            waiting.awaitingFullState = nil
            waiting.nextDue = nil
            guard waiting.touching.isEmpty, waiting.ownValues.isEmpty else {
                // A finger or its own values to respect: the careful way. A
                // value the client set meanwhile is newer than the full
                // state's, even when not queued (it is not echoed).
                let older = values.filter { waiting.pending[$0.slot] == nil && waiting.ownValues[$0.slot] == nil }
                return Self.enqueue(older, into: waiting)
            }
            // What was queued meanwhile is newer, and goes after the rest.
            var queued = waiting.order
            while let slot = queued.popFirst() {
                guard let value = waiting.pending[slot] else { continue }
                if pending.updateValue(value, forKey: slot) == nil { order.append(slot) }
            }
            waiting.pending = pending
            waiting.order = order
        }
        wake()
    }

    private static func enqueue(_ values: [FeedbackValue], into subscriber: Subscriber) {
        // A full state is every address of the rig: no lookups in empty
        // tables, and no clock read for them (a change visits every subscriber).
        let (touching, own) = (!subscriber.touching.isEmpty, !subscriber.ownValues.isEmpty)
        let now = touching || own ? ContinuousClock.now : nil
        let everyForm = subscriber.levelForms == nil
        for value in values {
            if !everyForm && !subscriber.takes(value.form) { continue }
            if touching, let touched = subscriber.touching[value.slot] {
                if now! - touched <= touchHold { continue }
                subscriber.touching.removeValue(forKey: value.slot)
            }
            if own, let own = subscriber.ownValues[value.slot] {
                if now! - own.at > echoWindow || !Self.sameValue(own.arguments, value.message.arguments) {
                    // Another value has come since: the client's own is history,
                    // and the same value again later is someone else's.
                    subscriber.ownValues.removeValue(forKey: value.slot)
                } else {
                    // Its own value: nothing to send, and nothing older either
                    // (its place in the queue is skipped when reached).
                    subscriber.pending.removeValue(forKey: value.slot)
                    continue
                }
            }
            if subscriber.pending.updateValue(value, forKey: value.slot) == nil {
                subscriber.order.append(value.slot)
                subscriber.nextDue = nil
            }
        }
    }
}
