import NIOCore
import OSC
import Synchronization

/// The WebSocket clients of a server and the addresses each LISTENs to.
/// `publish` may be called from any thread; each client has its own
/// bounded queue of frames, drained by its connection's task. Made before
/// the server that fills it, so that what publishes changes can be given it
/// when made (`OSCQueryServer.init(listeners:)`).
public final class OSCQueryListeners: Sendable {
    /// How many frames may wait for one client; beyond that the oldest are
    /// dropped, so a stalled client cannot hold memory without limit.
    static let queueLimit = 4096

    typealias Queue = AsyncStream<ByteBuffer>

    struct Client {
        let host: String
        var paths: Set<String> = []
        let queue: Queue.Continuation
        let backlog: Backlog
    }

    /// How many frames wait in a client's queue: counted up when one is
    /// queued, down when its connection has written one.
    final class Backlog: Sendable {
        private let frames = Atomic<Int>(0)
        var count: Int { frames.load(ordering: .relaxed) }
        func queued() { frames.add(1, ordering: .relaxed) }
        func written() { frames.subtract(1, ordering: .relaxed) }
    }

    private struct State {
        var nextID = 0
        var clients: [Int: Client] = [:]
        var isClosed = false
    }

    private let state = Mutex(State())
    private let dropped = Atomic<Int>(0)

    public init() {}

    /// Registers a client; nil once the server is stopping.
    func add(host: String) -> (id: Int, frames: Queue, backlog: Backlog)? {
        let (frames, queue) = Queue.makeStream(bufferingPolicy: .bufferingNewest(Self.queueLimit))
        let backlog = Backlog()
        let id: Int? = state.withLock { state in
            guard !state.isClosed else { return nil }
            defer { state.nextID += 1 }
            state.clients[state.nextID] = Client(host: host, queue: queue, backlog: backlog)
            return state.nextID
        }
        guard let id else { queue.finish(); return nil }
        return (id, frames, backlog)
    }

    func remove(_ id: Int) {
        state.withLock { $0.clients.removeValue(forKey: id) }?.queue.finish()
    }

    func listen(_ id: Int, to path: String) {
        state.withLock { _ = $0.clients[id]?.paths.insert(path) }
    }

    func ignore(_ id: Int, _ path: String) {
        state.withLock { _ = $0.clients[id]?.paths.remove(path) }
    }

    /// Queues `message` as one binary OSC frame for every client listening
    /// to its address (exactly that address: LISTEN to `/a` does not cover
    /// `/a/b`).
    public func publish(_ message: OSCMessage) {
        let clients = state.withLock { state in
            state.clients.values.filter { $0.paths.contains(message.address) }
        }
        guard !clients.isEmpty, let bytes = OSCCodec.encode(.message(message)) else { return }
        let frame = ByteBuffer(bytes: bytes)
        for client in clients { yield(frame, to: client) }
    }

    /// Queues one frame for one client; false when it is gone.
    func send(_ frame: ByteBuffer, to id: Int) -> Bool {
        guard let client = state.withLock({ $0.clients[id] }) else { return false }
        yield(frame, to: client)
        return true
    }

    private func yield(_ frame: ByteBuffer, to client: Client) {
        switch client.queue.yield(frame) {
        case .enqueued: client.backlog.queued()
        case .dropped: dropped.add(1, ordering: .relaxed) // one in, the oldest out
        case .terminated: break
        @unknown default: break
        }
    }

    /// How many more frames may be queued for a client while leaving half
    /// its queue to LISTEN values and replies: what feedback may add without
    /// ever pushing a frame out. 0 when it is gone.
    func room(for id: Int) -> Int {
        guard let backlog = state.withLock({ $0.clients[id]?.backlog }) else { return 0 }
        return max(0, Self.queueLimit / 2 - backlog.count)
    }

    /// Ends every client's queue, and refuses new clients.
    func closeAll() {
        let queues = state.withLock { state in
            state.isClosed = true
            return state.clients.values.map(\.queue)
        }
        for queue in queues { queue.finish() }
    }

    public var count: Int { state.withLock { $0.clients.count } }

    /// Frames dropped because a client's queue was full.
    var droppedCount: Int { dropped.load(ordering: .relaxed) }
}
