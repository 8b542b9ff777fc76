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
///   since by someone else). The other forms of the parameter still go to it.
/// - Feedback is coalesced: at most 30 updates a second per address per
///   client, the latest value winning and the final value always sent.
/// - It is packed into bundles that fit one UDP datagram (≤ 1400 bytes) and
///   paced (at most 10 datagrams per client every 10 ms, 1.4 MB/s), so that a
///   64x64 recall reaches a tablet whole instead of as a burst of lost packets.
public final class FeedbackHub: @unchecked Sendable {
    public static let datagramLimit = 1400
    static let minimumInterval: Duration = .milliseconds(33) // 30 updates/s per address
    /// How long a value a client set is not echoed back to it.
    static let echoWindow: Duration = .milliseconds(500)
    /// How long a touch holds without a word from its finger (a value or
    /// another touch): a release lost on Wi-Fi must not freeze a control
    /// for the rest of the show.
    static let touchHold: Duration = .seconds(10)
    static let datagramsPerTick = 10
    static let tick = 0.01

    public typealias Sender = @Sendable (OSCPacket, OSCPeer) -> Void

    private let send: Sender
    /// Nil: subscriptions never lapse for want of messages.
    private let lease: Duration?
    private let logger: Logger
    private let state = Mutex<[OSCPeer: Subscriber]>([:])
    /// Called every 33 ms (30 updates a second), before sending: where the
    /// values of fading parameters are published (`Controller.publishFades`).
    /// Set it before `run`.
    public var everyUpdate: (@Sendable (ContinuousClock.Instant) -> Void)?
    private let stopping = Atomic<Bool>(false)

    struct Subscriber {
        /// The source address of the client's own messages (renews the lease).
        var client: OSCPeer
        var lastSeen: ContinuousClock.Instant
        var pending: [String: OSCMessage] = [:]
        /// Addresses waiting to be sent, oldest first.
        var order: [String] = []
        var lastSent: [String: ContinuousClock.Instant] = [:]
        /// What the client itself last set at each address, and when: not echoed.
        var ownValues: [String: (arguments: [OSCArgument], at: ContinuousClock.Instant)] = [:]
        /// Addresses of the parameters under the client's finger, and when
        /// the finger was last heard: not sent while it holds.
        var touching: [String: ContinuousClock.Instant] = [:]
    }

    public init(lease: Duration? = nil, logger: Logger, send: @escaping Sender) {
        self.lease = lease
        self.logger = logger
        self.send = send
    }

    public var count: Int { state.withLock { $0.count } }

    /// Registers `client` for feedback at `port` on its host (or, for a TCP
    /// client or without a port, where it sends from). Returns the destination.
    /// `automatically`: subscribed for a change it made (`--auto-subscribe`);
    /// only the log line says so.
    @discardableResult
    public func subscribe(_ client: OSCPeer, port: Int?, automatically: Bool = false) -> OSCPeer {
        let destination = Self.destination(client, port: port)
        return state.withLock { subscribers -> OSCPeer in
            if subscribers[destination] == nil {
                logger.info("\(destination) \(automatically ? "subscribed to feedback by its change" : "subscribed to feedback")")
                subscribers[destination] = Subscriber(client: client, lastSeen: .now)
            } else {
                subscribers[destination]?.client = client
                subscribers[destination]?.lastSeen = .now
            }
            return destination
        }
    }

    /// Ends the subscription `subscribe` made; returns its destination.
    @discardableResult
    public func unsubscribe(_ client: OSCPeer, port: Int?) -> OSCPeer {
        let destination = Self.destination(client, port: port)
        state.withLock { subscribers in
            if subscribers.removeValue(forKey: destination) != nil { logger.info("\(destination) unsubscribed") }
        }
        return destination
    }

    static func destination(_ client: OSCPeer, port: Int?) -> OSCPeer {
        guard let port, case .udp = client.transport else { return client }
        return OSCPeer(address: client.address.with(port: port), transport: .udp, access: client.access)
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

    /// Runs `body` on each subscriber `matching` picks, in place. The picks
    /// are gathered first: changing the table while iterating it would copy
    /// it, and with it every subscriber's queues (all the addresses of the
    /// rig), at every message.
    private static func update(_ subscribers: inout [OSCPeer: Subscriber],
                               where matching: (OSCPeer, Subscriber) -> Bool, _ body: (inout Subscriber) -> Void) {
        let picked = subscribers.compactMap { matching($0.key, $0.value) ? $0.key : nil }
        for destination in picked where subscribers[destination] != nil { body(&subscribers[destination]!) }
    }

    /// Any message from a client renews its subscriptions: those made from
    /// its address, or sending to it. Returns their destinations.
    @discardableResult
    public func renew(_ client: OSCPeer) -> [OSCPeer] {
        let now = ContinuousClock.now
        return state.withLock { subscribers in
            let renewed = subscribers.compactMap { $0.value.client == client || $0.key == client ? $0.key : nil }
            for destination in renewed { subscribers[destination]?.lastSeen = now }
            return renewed
        }
    }

    /// Notes that `client` has just set `message`'s address to its value:
    /// its feedback will not echo it. Only feedback that goes back where the
    /// client sends from (its socket, connection or WebSocket): feedback a
    /// script asked for on another port is for someone else (a display, a
    /// logger), who did not make the change.
    public func noteOwnValue(_ message: OSCMessage, from client: OSCPeer) {
        let now = ContinuousClock.now
        state.withLock { subscribers in
            Self.update(&subscribers, where: { destination, _ in destination.isSamePath(as: client) }) { subscriber in
                subscriber.ownValues[message.address] = (message.arguments, now)
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
    public func touch(_ values: [OSCMessage], by client: OSCPeer, touched: Bool) {
        let addresses = values.map(\.address)
        let now = ContinuousClock.now
        state.withLock { subscribers in
            Self.update(&subscribers, where: { destination, _ in destination.isSamePath(as: client) }) { subscriber in
                if touched {
                    for address in addresses { subscriber.touching[address] = now }
                    for address in addresses where subscriber.pending.removeValue(forKey: address) != nil {
                        subscriber.order.removeAll { $0 == address }
                    }
                } else {
                    for address in addresses { subscriber.touching.removeValue(forKey: address) }
                    for address in addresses { subscriber.ownValues.removeValue(forKey: address) }
                    Self.enqueue(values, into: &subscriber)
                }
            }
        }
    }

    /// Queues messages for every subscriber.
    public func publish(_ messages: [OSCMessage]) {
        guard !messages.isEmpty else { return }
        state.withLock { subscribers in
            Self.update(&subscribers, where: { _, _ in true }) { Self.enqueue(messages, into: &$0) }
        }
    }

    /// Queues messages for one subscriber (the full state on subscribing).
    public func publish(_ messages: [OSCMessage], to destination: OSCPeer) {
        state.withLock { subscribers in
            guard subscribers[destination] != nil else { return }
            Self.enqueue(messages, into: &subscribers[destination]!)
        }
    }

    private static func enqueue(_ messages: [OSCMessage], into subscriber: inout Subscriber) {
        let now = ContinuousClock.now
        for message in messages {
            if let touched = subscriber.touching[message.address] {
                if now - touched <= touchHold { continue }
                subscriber.touching.removeValue(forKey: message.address)
            }
            if let own = subscriber.ownValues[message.address] {
                if now - own.at > echoWindow || !Self.sameValue(own.arguments, message.arguments) {
                    // Another value has come since: the client's own is history,
                    // and the same value again later is someone else's.
                    subscriber.ownValues.removeValue(forKey: message.address)
                } else {
                    // Its own value: nothing to send, and nothing older either.
                    if subscriber.pending.removeValue(forKey: message.address) != nil {
                        subscriber.order.removeAll { $0 == message.address }
                    }
                    continue
                }
            }
            if subscriber.pending.updateValue(message, forKey: message.address) == nil {
                subscriber.order.append(message.address)
            }
        }
    }

    /// Sends what is due every 10 ms and lets leases lapse, until `stop()`.
    /// Call on its own thread.
    public func run() {
        var lastUpdate = ContinuousClock.now
        while !stopping.load(ordering: .relaxed) {
            Thread.sleep(forTimeInterval: Self.tick)
            let now = ContinuousClock.now
            if now - lastUpdate >= Self.minimumInterval {
                everyUpdate?(now)
                lastUpdate = now
            }
            for (destination, packets) in due(at: now) {
                for packet in packets { send(packet, destination) }
            }
        }
    }

    public func stop() { stopping.store(true, ordering: .relaxed) }

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

    /// Takes, for each subscriber, the bundles to send now.
    func due(at now: ContinuousClock.Instant) -> [(OSCPeer, [OSCPacket])] {
        state.withLock { subscribers in
            var result: [(OSCPeer, [OSCPacket])] = []
            if let lease {
                let lapsed = subscribers.compactMap { now - $0.value.lastSeen > lease ? $0.key : nil }
                for destination in lapsed {
                    logger.info("\(destination): feedback subscription lapsed (nothing heard for \(lease))")
                    subscribers.removeValue(forKey: destination)
                }
            }
            for destination in Array(subscribers.keys) where subscribers[destination] != nil {
                let packets = Self.take(from: &subscribers[destination]!, now: now)
                if !packets.isEmpty { result.append((destination, packets)) }
            }
            return result
        }
    }

    /// Packs due messages (not sent in the last 33 ms) into bundles of at
    /// most 1400 bytes, at most `datagramsPerTick` of them; the rest waits.
    static func take(from subscriber: inout Subscriber, now: ContinuousClock.Instant) -> [OSCPacket] {
        // What no longer matters: own values past the echo window, and send
        // times past the 33 ms (a full state leaves one per address of the rig).
        if !subscriber.ownValues.isEmpty {
            subscriber.ownValues = subscriber.ownValues.filter { now - $0.value.at <= echoWindow }
        }
        if subscriber.lastSent.count > 2 * subscriber.pending.count + 1024 {
            subscriber.lastSent = subscriber.lastSent.filter { now - $0.value < minimumInterval }
        }
        var packets: [OSCPacket] = []
        var bundle: [OSCMessage] = []
        var size = 16 // "#bundle\0" and the time tag
        var kept: [String] = []
        var index = 0
        let order = subscriber.order
        while index < order.count {
            let address = order[index]
            index += 1
            guard let message = subscriber.pending[address] else { continue }
            if let last = subscriber.lastSent[address], now - last < minimumInterval {
                kept.append(address)
                continue
            }
            let length = 4 + message.encodedSize
            if size + length > datagramLimit && !bundle.isEmpty {
                packets.append(.bundle(bundle))
                bundle = []
                size = 16
                if packets.count == datagramsPerTick {
                    kept.append(address)
                    kept.append(contentsOf: order[index...])
                    break
                }
            }
            bundle.append(message)
            size += length
            subscriber.pending.removeValue(forKey: address)
            subscriber.lastSent[address] = now
        }
        if !bundle.isEmpty { packets.append(.bundle(bundle)) }
        subscriber.order = kept.filter { subscriber.pending[$0] != nil }
        return packets
    }
}
