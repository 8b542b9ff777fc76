import NIOCore
import Synchronization

/// What waits to be written to one WebSocket client, bounded in bytes.
/// Meter frames (`droppable`) make way first: past `byteLimit` the oldest
/// meter frames are dropped (and counted, for the client's `/status`);
/// if the other frames alone (values, replies, commands) pass the limit,
/// the queue is closed and so is the client. `stalled(at:)` tells how long
/// frames have waited with no write done: its connection's session closes a
/// client that stopped reading (`OSCQueryWebSocketSession`). `push` may be
/// called from any thread; one task takes (`next`).
final class FrameQueue: Sendable {
    /// The most bytes a client's frames may hold.
    static let byteLimit = 1 << 20
    /// The send buffer asked of the kernel for a WebSocket (`SO_SNDBUF`,
    /// which the kernel doubles): without it, one grows to 4 MiB for a
    /// client that does not read.
    static let kernelSendBuffer: SocketOptionValue = 128 * 1024

    private struct Entry {
        let frame: OSCQueryListeners.Frame
        let bytes: Int
        let order: Int
    }

    private struct State {
        var meters = CircularBuffer<Entry>()
        var others = CircularBuffer<Entry>()
        var bytes = 0
        var otherBytes = 0
        var order = 0
        var dropped = 0
        var finished = false
        /// Finished because the values alone passed the limit.
        var overflowed = false
        /// A frame `next` gave is being written.
        var inFlight = false
        /// When the last write was done, or frames began to wait.
        var progress = ContinuousClock.now
        var waiting: CheckedContinuation<OSCQueryListeners.Frame?, Never>?
    }

    enum Outcome: Equatable {
        /// Queued, after dropping this many of the oldest meter frames.
        case queued(dropped: Int)
        /// Not queued: the values alone passed the limit; the queue is finished.
        case overflowed
        /// Not queued: the queue was finished before.
        case finished
    }

    private let state = Mutex(State())

    /// Queues `frame`; when over the limit, drops the oldest meter frames,
    /// or closes the queue if the others alone are over.
    @discardableResult
    func push(_ frame: OSCQueryListeners.Frame, droppable: Bool) -> Outcome {
        // What it holds of memory: a buffer's whole allocation (a power of two).
        let bytes = switch frame {
        case .binary(let buffer): buffer.capacity
        case .text(let text): text.utf8.count
        }
        let (outcome, waiting) = state.withLock { state -> (Outcome, CheckedContinuation<OSCQueryListeners.Frame?, Never>?) in
            guard !state.finished else { return (.finished, nil) }
            if let waiting = state.waiting {
                state.waiting = nil
                state.inFlight = true
                state.progress = .now
                return (.queued(dropped: 0), waiting)
            }
            if state.bytes == 0 && !state.inFlight { state.progress = .now }
            let entry = Entry(frame: frame, bytes: bytes, order: state.order)
            state.order += 1
            state.bytes += bytes
            if droppable {
                state.meters.append(entry)
            } else {
                state.others.append(entry)
                state.otherBytes += bytes
            }
            guard state.bytes > Self.byteLimit else { return (.queued(dropped: 0), nil) }
            guard state.otherBytes <= Self.byteLimit else {
                state.finished = true
                state.overflowed = true
                state.meters.removeAll()
                state.others.removeAll()
                state.bytes = 0
                return (.overflowed, nil)
            }
            var dropped = 0
            while state.bytes > Self.byteLimit, let oldest = state.meters.popFirst() {
                state.bytes -= oldest.bytes
                dropped += 1
            }
            state.dropped += dropped
            return (.queued(dropped: dropped), nil)
        }
        waiting?.resume(returning: frame)
        return outcome
    }

    /// The next frame, oldest first, waiting for one; nil once finished.
    func next() async -> OSCQueryListeners.Frame? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready: OSCQueryListeners.Frame?? = state.withLock { state in
                    guard !state.finished else { return .some(nil) }
                    guard let entry = Self.popOldest(&state) else {
                        state.waiting = continuation
                        return nil
                    }
                    state.inFlight = true
                    return .some(entry.frame)
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            finish()
        }
    }

    /// A frame `next` gave has been written.
    func written() {
        state.withLock { state in
            state.inFlight = false
            state.progress = .now
        }
    }

    /// Ends the queue: `next` gives nil, `push` queues nothing.
    func finish() {
        let waiting = state.withLock { state in
            state.finished = true
            state.meters.removeAll()
            state.others.removeAll()
            state.bytes = 0
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume(returning: nil)
    }

    /// How long frames have waited with no write done (zero when none wait).
    func stalled(at now: ContinuousClock.Instant = .now) -> Duration {
        state.withLock { $0.bytes > 0 || $0.inFlight ? now - $0.progress : .zero }
    }

    /// Bytes of values, replies and commands waiting (meters aside).
    var otherBytes: Int { state.withLock { $0.otherBytes } }

    /// Whether the queue was finished because the values alone passed the limit.
    var overflowed: Bool { state.withLock { $0.overflowed } }

    /// Meter frames dropped so far.
    var dropped: Int { state.withLock { $0.dropped } }

    private static func popOldest(_ state: inout State) -> Entry? {
        let meter = state.meters.first, other = state.others.first
        let entry: Entry?
        if let meter, other.map({ meter.order < $0.order }) ?? true {
            entry = state.meters.popFirst()
        } else {
            entry = state.others.popFirst()
            state.otherBytes -= entry?.bytes ?? 0
        }
        state.bytes -= entry?.bytes ?? 0
        return entry
    }
}
