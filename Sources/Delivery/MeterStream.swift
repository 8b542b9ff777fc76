import Dispatch
import Glibc
import Logging
import Catalogue
import MixCore
import OSC
import Synchronization
import SystemSupport

/// Streams level meters to subscribers: `/meters/input`, `/meters/source`
/// (each source as the matrix hears it: after its level, mute, polarity,
/// DCAs and mute groups) and `/meters/output` (peak dBFS per channel over
/// the interval), and each `…/rms` (RMS, AES17: a sine reads its peak level), at each
/// subscriber's own rate. Levels are floored at −90 dBFS. Subscriptions last
/// and are limited like feedback ones (`FeedbackHub`).
public final class MeterStream: @unchecked Sendable {
    static let floor: Float = -90

    public typealias Sender = @Sendable (OSCPacket, OSCPeer) -> Void

    private let mixer: Mixer
    /// Nil: subscriptions never lapse for want of messages.
    private let lease: Duration?
    private let logger: Logger
    private let send: Sender
    private let subscribers = Mutex<[OSCPeer: Subscriber]>([:])
    private let stopping = Atomic<Bool>(false)
    /// Wakes the thread resting while nobody is subscribed (signalled only
    /// while it rests, so that signals do not pile up).
    private let woken = DispatchSemaphore(value: 0)
    private let resting = Atomic<Bool>(false)

    struct Subscriber {
        var interval: Duration
        var lastSent: ContinuousClock.Instant
        var lastSeen: ContinuousClock.Instant
        var peak: [Float]
        var sum: [Double]
        var frames = 0
        /// Inputs among the channels (the rest are outputs).
        var inputs = 0
    }

    public init(mixer: Mixer, lease: Duration? = nil, logger: Logger, send: @escaping Sender) {
        self.mixer = mixer
        self.lease = lease
        self.logger = logger
        self.send = send
    }

    public var count: Int { subscribers.withLock { $0.count } }

    /// Meters to `client` (where it sends from) at `rate` per second (1-60).
    public func subscribe(_ client: OSCPeer, rate: Double) {
        let shape = mixer.rampLayout
        let channels = 2 * shape.inputs + 2 * shape.outputs // inputs, outputs, sources, limiters
        subscribers.withLock { subscribers in
            if subscribers[client] == nil {
                logger.info("\(client) subscribed to meters at \(rate) Hz")
            }
            subscribers[client] = Subscriber(interval: .milliseconds(Int(1000 / rate)), lastSent: .now, lastSeen: .now,
                                             peak: Array(repeating: 0, count: channels),
                                             sum: Array(repeating: 0, count: channels), inputs: shape.inputs)
            mixer.meters.setEnabled(true)
        }
        if resting.exchange(false, ordering: .sequentiallyConsistent) { woken.signal() }
    }

    public func unsubscribe(_ client: OSCPeer) {
        subscribers.withLock { subscribers in
            subscribers.removeValue(forKey: client)
            if subscribers.isEmpty { mixer.meters.setEnabled(false) }
        }
    }

    /// Ends the meters of a client shown to be gone.
    public func depart(_ peer: OSCPeer) {
        subscribers.withLock { subscribers in
            for client in subscribers.keys.filter({ $0.isSamePath(as: peer) }) {
                subscribers.removeValue(forKey: client)
                logger.info("\(client): gone; meter subscription ended")
            }
            if subscribers.isEmpty { mixer.meters.setEnabled(false) }
        }
    }

    public func renew(_ client: OSCPeer) {
        subscribers.withLock { subscribers in
            if subscribers[client] != nil { subscribers[client]?.lastSeen = .now }
        }
    }

    /// At each `tick()` (when the first subscriber is due, 2…50 ms): takes the levels, folds them into each subscriber's
    /// interval, and sends those whose interval is over. While nobody is
    /// subscribed it rests (the meters are off) until a subscription wakes
    /// it, or a second has passed. Until `stop()`.
    public func run() {
        var rested = false
        while !stopping.load(ordering: .relaxed) {
            // Marked resting under the lock: a subscription after this look
            // finds the mark and wakes the thread.
            if subscribers.withLock({ subscribers -> Bool in
                resting.store(subscribers.isEmpty, ordering: .sequentiallyConsistent)
                return subscribers.isEmpty
            }) {
                rested = true
                _ = woken.wait(timeout: .now() + .seconds(1))
                resting.store(false, ordering: .sequentiallyConsistent)
                continue
            }
            if rested {
                // What the bank held from before the rest is not this subscription's.
                rested = false
                let shape = mixer.rampLayout
                _ = mixer.meters.take(inputs: shape.inputs, outputs: shape.outputs)
            }
            Thread.sleep(forTimeInterval: tick())
            let now = ContinuousClock.now
            // The size now: a rig that changed size meters its new channels.
            let shape = mixer.rampLayout
            let levels = mixer.meters.take(inputs: shape.inputs, outputs: shape.outputs)
            var due: [(OSCPeer, [OSCPacket])] = []
            subscribers.withLock { subscribers in
                if let lease {
                    for client in subscribers.compactMap({ !$0.key.isSurface && now - $0.value.lastSeen > lease ? $0.key : nil }) {
                        logger.info("\(client): meter subscription lapsed")
                        subscribers.removeValue(forKey: client)
                    }
                }
                // Each subscriber changed in place (a copy would copy its levels too).
                for client in Array(subscribers.keys) where subscribers[client] != nil {
                    if let packets = accumulate(levels, inputs: shape.inputs, into: &subscribers[client]!, now: now) {
                        due.append((client, packets))
                    }
                }
                // Under the lock, so that a subscription cannot slip in between.
                mixer.meters.setEnabled(!subscribers.isEmpty)
            }
            for (client, packets) in due { for packet in packets { send(packet, client) } }
        }
    }

    public func stop() {
        stopping.store(true, ordering: .relaxed)
        woken.signal()
    }

    /// Seconds until the next take of the bank: until the first
    /// subscriber's interval is over, within 2…50 ms. The bank holds peaks
    /// and sums between takes, so a longer wait loses nothing; it only wakes
    /// the thread less (a control surface's meters at 10 a second: 10
    /// wakeups, not 100), and each subscriber is sent at its own rate.
    private func tick() -> Double {
        let now = ContinuousClock.now
        let next = subscribers.withLock { $0.values.map { $0.lastSent + $0.interval }.min() } ?? now
        let (seconds, attoseconds) = (next - now).components
        return min(max(Double(seconds) + Double(attoseconds) * 1e-18, 0.002), 0.05)
    }

    /// Folds one take of levels into a subscriber's interval; the messages
    /// when its interval is over, which starts the next.
    private func accumulate(_ levels: (peak: [Float], sumOfSquares: [Double], frames: Int), inputs: Int,
                            into s: inout Subscriber, now: ContinuousClock.Instant) -> [OSCPacket]? {
        if s.peak.count != levels.peak.count || s.inputs != inputs {
            // The rig changed size: the interval starts again at the new one.
            (s.peak, s.sum, s.frames, s.inputs) = (Array(repeating: 0, count: levels.peak.count),
                                                  Array(repeating: 0, count: levels.peak.count), 0, inputs)
        }
        for c in s.peak.indices where c < levels.peak.count {
            s.peak[c] = max(s.peak[c], levels.peak[c])
            s.sum[c] += levels.sumOfSquares[c]
        }
        s.frames += levels.frames
        guard now - s.lastSent >= s.interval else { return nil }
        let packets = packets(s)
        s.lastSent = now
        for c in s.peak.indices { (s.peak[c], s.sum[c]) = (0, 0) }
        s.frames = 0
        return packets
    }

    /// The seven meter messages, in one bundle when it fits a datagram.
    private func packets(_ s: Subscriber) -> [OSCPacket] {
        let inputs = s.inputs
        func decibels(_ linear: Float) -> OSCArgument {
            .float(linear > 0 ? max(Self.floor, 20 * log10f(linear)) : Self.floor)
        }
        // AES17: RMS shown +3.01 dB, so that a sine reads its peak level.
        let rms = s.sum.map { s.frames > 0 ? Float(($0 / Double(s.frames)).squareRoot() * 2.0.squareRoot()) : 0 }
        // Inputs, outputs, the sources after their gains, then the limiters
        // (`MeterBank.take`: the most each took off, as 1 / gain).
        let count = (s.peak.count - 2 * inputs) / 2
        let outputs = inputs..<(inputs + count), sources = (inputs + count)..<(2 * inputs + count)
        let limiters = (2 * inputs + count)...
        func reduction(_ inverse: Float) -> OSCArgument {
            .float(inverse > 1 ? max(Self.floor, -20 * log10f(inverse)) : 0)
        }
        let messages = [
            OSCMessage(Reply.Name.metersInput.address, s.peak[..<inputs].map(decibels)),
            OSCMessage(Reply.Name.metersOutput.address, s.peak[outputs].map(decibels)),
            OSCMessage(Reply.Name.metersInputRMS.address, rms[..<inputs].map(decibels)),
            OSCMessage(Reply.Name.metersOutputRMS.address, rms[outputs].map(decibels)),
            OSCMessage(Reply.Name.metersSource.address, s.peak[sources].map(decibels)),
            OSCMessage(Reply.Name.metersSourceRMS.address, rms[sources].map(decibels)),
            OSCMessage(Reply.Name.metersLimiter.address, s.peak[limiters].map(reduction)),
        ]
        let size = 16 + messages.reduce(0) { $0 + 4 + $1.encodedSize }
        return size <= FeedbackHub.datagramLimit ? [.bundle(messages)] : messages.map { .message($0) }
    }
}
