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
    /// How often the thread looks for feedback to send: every 10 ms while
    /// anything waits for a subscriber, and every millisecond while some
    /// subscriber has more than its pace let go. While nothing waits it
    /// sleeps until the next update of moving fades, or until a change is
    /// queued; then it lets the rest of that packet's changes come for
    /// `busyTick` before its turn.
    static let tick = 0.01
    static let busyTick = 0.001
    /// The most packets a stream is given in one turn (90 KB a millisecond),
    /// so that one fast reader does not hold up the others' turns.
    public static let streamPacketsPerTurn = 64
    /// A TCP connection with no room for this long, while feedback waits for
    /// it, is sent one packet anyway: a client that still does not read is
    /// then cut off by the server's write timeout (0.2 s).
    static let streamStall: Duration = .seconds(1)

    public typealias Sender = @Sendable (OSCPacket, OSCPeer) -> Void
    /// How many packets of up to `datagramLimit` bytes a stream destination
    /// (TCP, WebSocket) takes now without waiting.
    public typealias Room = @Sendable (OSCPeer) -> Int

    let send: Sender
    let room: Room
    /// Whether some subscriber had more feedback than its pace let go at
    /// the last turn.
    let behind = Atomic<Bool>(false)
    /// Whether anything waited for a subscriber after the last turn.
    let queued = Atomic<Bool>(false)
    /// The thread rests (nothing waits for anyone): the next change queued
    /// wakes it through `alarm`.
    private let resting = Atomic<Bool>(false)
    private let alarm = DispatchSemaphore(value: 0)
    /// Nil: subscriptions never lapse for want of messages.
    let lease: Duration?
    let logger: Logger
    let state = Mutex<[OSCPeer: Subscriber]>([:])
    /// Subscriptions made so far (under `state`'s lock): each full state is
    /// told from the one before.
    var subscriptions = 0
    private let stopping = Atomic<Bool>(false)

    /// `room`: for TCP and WebSocket subscribers; without it, a stream is
    /// given `streamPacketsPerTurn` packets a turn.
    public init(lease: Duration? = nil, logger: Logger, send: @escaping Sender,
                room: @escaping Room = { _ in FeedbackHub.streamPacketsPerTurn }) {
        self.lease = lease
        self.logger = logger
        self.send = send
        self.room = room
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
        var held: Feedback?
        state.withLock { subscribers in
            Self.update(subscribers, where: { destination, _ in destination.isSamePath(as: client) }) { subscriber in
                subscriber.ownValues[message.address] = (message.arguments, now)
                if subscriber.levelForms != nil {
                    let forms = held ?? asHeld()
                    held = forms
                    Self.noteOtherForms(of: message, forms, into: subscriber, at: now)
                }
                // A finger that moves is still there.
                if subscriber.touching[message.address] != nil {
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
        let addresses = values.messages.map(\.address)
        let now = ContinuousClock.now
        state.withLock { subscribers in
            Self.update(subscribers, where: { destination, _ in destination.isSamePath(as: client) }) { subscriber in
                if touched {
                    for address in addresses { subscriber.touching[address] = now }
                    // Their places in the queue are skipped when reached.
                    for address in addresses { subscriber.pending.removeValue(forKey: address) }
                } else {
                    for address in addresses { subscriber.touching.removeValue(forKey: address) }
                    for address in addresses { subscriber.ownValues.removeValue(forKey: address) }
                    Self.enqueue(values, into: subscriber)
                }
            }
        }
        if !touched { wake() }
    }

    /// Queues feedback for every subscriber, each in the forms it takes.
    public func publish(_ feedback: Feedback) {
        guard !feedback.isEmpty else { return }
        state.withLock { subscribers in
            for subscriber in subscribers.values { Self.enqueue(feedback, into: subscriber) }
        }
        wake()
    }

    /// Queues plain messages (status, ports, presets) for every subscriber.
    public func publish(_ messages: [OSCMessage]) {
        publish(Feedback(plain: messages))
    }

    /// Queues feedback for one subscriber.
    public func publish(_ feedback: Feedback, to destination: OSCPeer) {
        state.withLock { subscribers in
            guard let subscriber = subscribers[destination] else { return }
            Self.enqueue(feedback, into: subscriber)
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
        var pending = [String: OSCMessage](minimumCapacity: messages.count)
        var order = FeedbackQueue()
        for message in messages where pending.updateValue(message, forKey: message.address) == nil {
            order.append(message.address)
        }
        state.withLock { subscribers in
            // Gone, or subscribed again since: a newer full state follows.
            guard let waiting = subscribers[destination], waiting.awaitingFullState == subscription else { return }
            waiting.awaitingFullState = nil
            waiting.nextDue = nil
            guard waiting.touching.isEmpty, waiting.ownValues.isEmpty else {
                // A finger or its own values to respect: the careful way. A
                // value the client set meanwhile is newer than the full
                // state's, even when not queued (it is not echoed).
                let older = messages.filter {
                    waiting.pending[$0.address] == nil && waiting.ownValues[$0.address] == nil
                }
                return Self.enqueue(Feedback(plain: older), into: waiting)
            }
            // What was queued meanwhile is newer, and goes after the rest.
            var queued = waiting.order
            while let address = queued.popFirst() {
                guard let message = waiting.pending[address] else { continue }
                if pending.updateValue(message, forKey: address) == nil { order.append(address) }
            }
            waiting.pending = pending
            waiting.order = order
        }
        wake()
    }

    private static func enqueue(_ feedback: Feedback, into subscriber: Subscriber) {
        // A full state is every address of the rig: no lookups in empty
        // tables, and no clock read for them (a change visits every subscriber).
        let (touching, own) = (!subscriber.touching.isEmpty, !subscriber.ownValues.isEmpty)
        let now = touching || own ? ContinuousClock.now : nil
        let everyForm = subscriber.levelForms == nil
        for (message, form) in zip(feedback.messages, feedback.forms) {
            if !everyForm && !subscriber.takes(form) { continue }
            if touching, let touched = subscriber.touching[message.address] {
                if now! - touched <= touchHold { continue }
                subscriber.touching.removeValue(forKey: message.address)
            }
            if own, let own = subscriber.ownValues[message.address] {
                if now! - own.at > echoWindow || !Self.sameValue(own.arguments, message.arguments) {
                    // Another value has come since: the client's own is history,
                    // and the same value again later is someone else's.
                    subscriber.ownValues.removeValue(forKey: message.address)
                } else {
                    // Its own value: nothing to send, and nothing older either
                    // (its place in the queue is skipped when reached).
                    subscriber.pending.removeValue(forKey: message.address)
                    continue
                }
            }
            if subscriber.pending.updateValue(message, forKey: message.address) == nil {
                subscriber.order.append(message.address)
                subscriber.nextDue = nil
            }
        }
    }

    /// Sends what is due every 10 ms (every millisecond while a subscriber
    /// has more than its pace let go) and lets leases lapse, until `stop()`.
    /// `everyUpdate` is called every 33 ms (30 updates a second), before
    /// sending: where the values of fading parameters are published
    /// (`Controller.publishFades`). Call on its own thread.
    public func run(everyUpdate: (ContinuousClock.Instant) -> Void = { _ in }) {
        var lastUpdate = ContinuousClock.now
        while !stopping.load(ordering: .relaxed) {
            if queued.load(ordering: .relaxed) {
                Thread.sleep(forTimeInterval: behind.load(ordering: .relaxed) ? Self.busyTick : Self.tick)
            } else if rest(until: lastUpdate + Self.minimumInterval) {
                Thread.sleep(forTimeInterval: Self.busyTick)
            }
            let now = ContinuousClock.now
            if now - lastUpdate >= Self.minimumInterval {
                everyUpdate(now)
                lastUpdate = now
            }
            for (destination, packets) in due(at: now) {
                for packet in packets { send(packet, destination) }
            }
        }
    }

    /// Sleeps until `deadline`, or until a change is queued (`wake`):
    /// whether one was.
    private func rest(until deadline: ContinuousClock.Instant) -> Bool {
        let left = deadline - .now
        guard left > .zero else { return false }
        resting.store(true, ordering: .sequentiallyConsistent)
        // Queued since the last turn looked: no rest.
        if state.withLock({ $0.values.contains { $0.hasQueued } }) {
            resting.store(false, ordering: .sequentiallyConsistent)
            return true
        }
        let nanoseconds = Int(left.components.seconds) * 1_000_000_000 + Int(left.components.attoseconds / 1_000_000_000)
        let woken = alarm.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
        resting.store(false, ordering: .sequentiallyConsistent)
        return woken
    }

    /// Something was queued: a resting thread takes its turn.
    private func wake() {
        if resting.exchange(false, ordering: .sequentiallyConsistent) { alarm.signal() }
    }

    public func stop() {
        stopping.store(true, ordering: .relaxed)
        wake()
    }
}
