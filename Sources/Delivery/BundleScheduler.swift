import Dispatch
import FoundationEssentials
import Logging
import MixCore
import OSC
import Synchronization
import SystemSupport

/// JACK's clock, as the scheduler needs it: the cue clock the audio thread
/// applies timed changes on (`CueClock`), and how far the audio has got on it.
public protocol AudioClock: CueClock {
    /// The end of the span of the cue clock the audio thread processed last
    /// (`PeriodSpan.end`): every cue due before it has been applied; nil
    /// while JACK is away.
    func lastProcessedCueTime() -> UInt64?
}

/// Keeps the bundles whose time tag lies ahead until their time, for the
/// control side: the scene, replies and feedback change when the audio has
/// reached the bundle's frame. (The audio itself does not wait here: the
/// bundle's changes were handed to the mixer on arrival, stamped with their
/// time, and apply at their exact frame; see `Controller.handle`.)
///
/// What waits is bounded in count and in bytes (the messages, and the
/// changes staged for the audio thread), in all, per sender (its address
/// and port, or its connection) and per host, so that one client cannot
/// fill the queue for everyone: a flood of future bundles is refused with
/// an `/error`, never kept. The last `reserve` places are kept for sessions
/// with full access: a viewer cannot take the engineer's cue's place.
public final class BundleScheduler: @unchecked Sendable {
    struct Entry {
        let due: Double
        /// The due time on the cue clock (JACK's microseconds), mapped once on
        /// arrival, as the mixer maps it for the audio thread.
        let cueTime: UInt64?
        let messages: [OSCMessage]
        let peer: OSCPeer
        /// What the audio thread was given for this bundle (restaged when the
        /// rig changes size meanwhile, as the mixer's copy is).
        var staged: [Change]
        let bytes: Int
    }

    /// What one sender or one host has waiting.
    public struct Share: Sendable {
        public var bundles = 0
        public var bytes = 0
    }

    private struct Queue {
        var entries: [Entry] = []
        var bytes = 0
        var bySender: [OSCPeer: Share] = [:]
        var byHost: [String: Share] = [:]
        /// Bundles from sessions without full access.
        var limited = 0

        mutating func count(_ entry: Entry, _ sign: Int) {
            bytes += sign * entry.bytes
            let sender = entry.peer.sessionKey
            bySender[sender, default: Share()].bundles += sign
            bySender[sender, default: Share()].bytes += sign * entry.bytes
            if bySender[sender]?.bundles == 0 { bySender[sender] = nil }
            byHost[entry.peer.host, default: Share()].bundles += sign
            byHost[entry.peer.host, default: Share()].bytes += sign * entry.bytes
            if byHost[entry.peer.host]?.bundles == 0 { byHost[entry.peer.host] = nil }
            if entry.peer.access != .full { limited += sign }
        }
    }

    private let queue = Mutex<Queue>(Queue())
    /// How many wait, readable without the lock: the controller asks before every message.
    private let count = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    /// Wakes the thread resting while no bundle waits (signalled only
    /// while it rests, so that signals do not pile up).
    private let woken = DispatchSemaphore(value: 0)
    private let resting = Atomic<Bool>(false)
    private let clock: any AudioClock
    /// At most this many bundles wait, and this many bytes, in all.
    public static let capacity = 10_000
    public static let byteLimit = 64 << 20
    /// What one sender (address and port, or connection) may have waiting.
    public static let senderQuota = Share(bundles: 256, bytes: 4 << 20)
    /// What one host may have waiting, whatever ports it sends from.
    public static let hostQuota = Share(bundles: 1_024, bytes: 8 << 20)
    /// Places only sessions with full access may take.
    public static let reserve = 2_000

    public init(clock: any AudioClock) {
        self.clock = clock
    }

    public var waiting: Int { count.load(ordering: .relaxed) }
    public var waitingBytes: Int { queue.withLock { $0.bytes } }

    /// Why one more bundle of `bytes` from `peer` cannot wait; nil if it can.
    public func refusal(bytes: Int, from peer: OSCPeer) -> String? {
        queue.withLock { Self.refusal(bytes: bytes, from: peer, in: $0) }
    }

    private static func refusal(bytes: Int, from peer: OSCPeer, in queue: Queue) -> String? {
        let sender = queue.bySender[peer.sessionKey] ?? Share(), host = queue.byHost[peer.host] ?? Share()
        if sender.bundles >= senderQuota.bundles {
            return "this client has \(senderQuota.bundles) bundles waiting for their time, its most"
        }
        if sender.bytes + bytes > senderQuota.bytes {
            return "this client's bundles waiting for their time would exceed \(senderQuota.bytes >> 20) MiB"
        }
        if host.bundles >= hostQuota.bundles {
            return "this host has \(hostQuota.bundles) bundles waiting for their time, its most"
        }
        if host.bytes + bytes > hostQuota.bytes {
            return "this host's bundles waiting for their time would exceed \(hostQuota.bytes >> 20) MiB"
        }
        if peer.access != .full && queue.limited >= capacity - reserve {
            return "too many bundles from sessions without full access waiting for their time (\(capacity - reserve))"
        }
        if queue.entries.count >= capacity { return "too many bundles waiting for their time (\(capacity))" }
        if queue.bytes + bytes > byteLimit { return "bundles waiting for their time would exceed \(byteLimit >> 20) MiB" }
        return nil
    }

    /// The rig changed size: every waiting bundle's staged changes move to
    /// their slots in the new layout (`remap`: old slot to new, −1 gone).
    public func restage(by remap: [Int32]) {
        queue.withLock { queue in
            for index in queue.entries.indices {
                queue.entries[index].staged = RampLayout.restage(queue.entries[index].staged, by: remap)
            }
        }
    }

    /// Keeps a bundle until `due` (Unix time), with the changes the audio
    /// thread was given for it. Returns why not, or nil when it waits.
    public func schedule(_ messages: [OSCMessage], at due: Double, from peer: OSCPeer,
                         staged: [Change], bytes: Int) -> String? {
        let cueTime = clock.cueTime(atUnixTime: due)
        let refused = queue.withLock { queue -> String? in
            if let reason = Self.refusal(bytes: bytes, from: peer, in: queue) { return reason }
            let index = queue.entries.firstIndex { $0.due > due } ?? queue.entries.count
            let entry = Entry(due: due, cueTime: cueTime, messages: messages, peer: peer, staged: staged, bytes: bytes)
            queue.entries.insert(entry, at: index)
            queue.count(entry, +1)
            count.store(queue.entries.count, ordering: .relaxed)
            return nil
        }
        // The thread rests while nothing waits: a bundle wakes it.
        if refused == nil, resting.exchange(false, ordering: .sequentiallyConsistent) { woken.signal() }
        return refused
    }

    /// Says when bundles come due, until `stop()`: `due` is called on this
    /// thread when the first is (the controller's `releaseDueBundles`, which
    /// takes them, `takeDue`, between two packets). Call on its own thread.
    public func run(due: () -> Void) {
        while !stopping.load(ordering: .relaxed) {
            // Marked resting under the queue's lock: a bundle scheduled after
            // this look finds the mark and wakes the thread.
            guard let next = queue.withLock({ queue -> Entry? in
                resting.store(queue.entries.isEmpty, ordering: .sequentiallyConsistent)
                return queue.entries.first
            }) else {
                // Nothing waits: rest until a bundle is scheduled (`woken`).
                _ = woken.wait(timeout: .now() + .seconds(1))
                resting.store(false, ordering: .sequentiallyConsistent)
                continue
            }
            let ahead = next.due - Date().timeIntervalSince1970
            if ahead > 0.1 {
                Thread.sleep(forTimeInterval: min(ahead - 0.08, 0.05))
                continue
            }
            if isDue(next) { due() }
            Thread.sleep(forTimeInterval: 0.0005)
        }
    }

    /// The bundles due now, earliest first, taken out, for the controller to
    /// handle: when told they are due, and before any packet that arrives
    /// after their frame has played. Taken and handled between two packets,
    /// so none comes between.
    public func takeDue() -> [(messages: [OSCMessage], peer: OSCPeer, staged: [Change])] {
        var due: [(messages: [OSCMessage], peer: OSCPeer, staged: [Change])] = []
        while let entry = takeFirstIfDue() { due.append((entry.messages, entry.peer, entry.staged)) }
        return due
    }

    private func takeFirstIfDue() -> Entry? {
        guard count.load(ordering: .relaxed) > 0, let first = queue.withLock({ $0.entries.first }), isDue(first) else { return nil }
        return queue.withLock { queue -> Entry? in
            // Still the same first entry: only this scheduler's callers remove entries.
            guard let entry = queue.entries.first, entry.due == first.due else { return nil }
            queue.entries.removeFirst()
            count.store(queue.entries.count, ordering: .relaxed)
            queue.count(entry, -1)
            return entry
        }
    }

    public func stop() {
        stopping.store(true, ordering: .relaxed)
        woken.signal()
    }

    /// Whether the audio has yet to reach a Unix time on the cue clock: a
    /// bundle that arrives after its time by the wall clock can still land
    /// at its frame while the audio lags the wall clock (a busy machine's
    /// callback runs late). False while JACK is away, and for a time more
    /// than 0.1 s past (the mapping may be stale, as in `isDue`).
    public func audioHasYetToReach(_ due: Double) -> Bool {
        guard Date().timeIntervalSince1970 < due + 0.1,
              let target = clock.cueTime(atUnixTime: due), let done = clock.lastProcessedCueTime() else { return false }
        return target >= done
    }

    /// Due once the audio thread has processed the period that holds the
    /// bundle's time on the cue clock, the one its changes were applied in
    /// (a message that arrives after it then follows it); by the wall clock
    /// while JACK is away.
    private func isDue(_ entry: Entry) -> Bool {
        // Never later than 0.1 s past its time by the wall clock (after a JACK
        // restart the frame clock starts again, and the mapping is stale).
        if Date().timeIntervalSince1970 >= entry.due + 0.1 { return true }
        guard let target = entry.cueTime, let done = clock.lastProcessedCueTime() else {
            return Date().timeIntervalSince1970 >= entry.due
        }
        return target < done
    }
}
