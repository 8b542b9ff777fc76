import FoundationEssentials
import Logging
import OSC
import Synchronization
import SystemSupport

/// JACK's sample clock, as the scheduler needs it.
public protocol AudioClock: Sendable {
    /// The frame time (as JACK counts frames) at a Unix time; nil while JACK is away.
    func frame(atUnixTime time: Double) -> UInt32?
    /// The frame time of the period processed last; nil while JACK is away.
    func lastProcessedFrame() -> UInt32?
    /// Frames per period.
    var periodFrames: Int { get }
}

/// Holds bundles whose time tag lies in the future and hands them to the
/// controller so that they take effect in the audio period that contains
/// their time: on arrival the OSC (NTP) time is mapped to JACK's frame clock,
/// and the bundle is released when the audio thread has processed the period
/// before the one holding that frame. Precision: one period (1.3 ms at 64
/// frames, 48 kHz).
public final class BundleScheduler: @unchecked Sendable {
    struct Entry {
        let due: Double
        /// The due time on JACK's frame clock, mapped once on arrival.
        let frame: UInt32?
        let messages: [OSCMessage]
        let peer: OSCPeer
    }

    private let entries = Mutex<[Entry]>([])
    private let stopping = Atomic<Bool>(false)
    private let clock: any AudioClock
    private let release: @Sendable ([OSCMessage], OSCPeer) -> Void
    /// At most this many bundles wait (a flood of future bundles cannot eat memory).
    public static let capacity = 10_000

    public init(clock: any AudioClock, release: @escaping @Sendable ([OSCMessage], OSCPeer) -> Void) {
        self.clock = clock
        self.release = release
    }

    public var waiting: Int { entries.withLock { $0.count } }

    /// Queues a bundle for `due` (Unix time). False when too many wait.
    public func schedule(_ messages: [OSCMessage], at due: Double, from peer: OSCPeer) -> Bool {
        let frame = clock.frame(atUnixTime: due)
        return entries.withLock { entries in
            guard entries.count < Self.capacity else { return false }
            let index = entries.firstIndex { $0.due > due } ?? entries.count
            entries.insert(Entry(due: due, frame: frame, messages: messages, peer: peer), at: index)
            return true
        }
    }

    /// Releases bundles as they come due, until `stop()`. Call on its own thread.
    public func run() {
        while !stopping.load(ordering: .relaxed) {
            guard let next = entries.withLock({ $0.first }) else {
                Thread.sleep(forTimeInterval: 0.005)
                continue
            }
            let ahead = next.due - Date().timeIntervalSince1970
            if ahead > 0.1 {
                Thread.sleep(forTimeInterval: min(ahead - 0.08, 0.05))
                continue
            }
            if !isDue(next) {
                Thread.sleep(forTimeInterval: 0.0002)
                continue
            }
            guard let entry = entries.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            release(entry.messages, entry.peer)
        }
    }

    public func stop() { stopping.store(true, ordering: .relaxed) }

    /// Due when the period that contains the bundle's frame is the next to
    /// be processed (or already was: then it is a period late); by the wall
    /// clock while JACK is away.
    private func isDue(_ entry: Entry) -> Bool {
        // Never later than 0.1 s past its time by the wall clock (after a JACK
        // restart the frame clock starts again, and the mapping is stale).
        if Date().timeIntervalSince1970 >= entry.due + 0.1 { return true }
        guard let target = entry.frame, let last = clock.lastProcessedFrame() else {
            return Date().timeIntervalSince1970 >= entry.due
        }
        return Int32(bitPattern: target &- last) < Int32(2 * clock.periodFrames)
    }
}
