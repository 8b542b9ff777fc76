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

    /// What waits in a client's queue: a binary OSC frame (a value, a
    /// reply) or a text frame (a command: PATH_ADDED, PATH_REMOVED).
    enum Frame: Sendable {
        case binary(ByteBuffer)
        case text(String)
    }

    typealias Queue = AsyncStream<Frame>

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

    /// Adds `path` to a client's LISTENs if `exists(path)`, asked under
    /// the lock: a namespace change (`endListens(where:)`) then cannot
    /// miss a LISTEN checked against the namespace it replaced. False when
    /// it does not exist.
    func listen(_ id: Int, to path: String, if exists: (String) -> Bool) -> Bool {
        state.withLock { state in
            guard exists(path) else { return false }
            _ = state.clients[id]?.paths.insert(path)
            return true
        }
    }

    func ignore(_ id: Int, _ path: String) {
        state.withLock { _ = $0.clients[id]?.paths.remove(path) }
    }

    /// Ends every LISTEN on a path `isGone` says is no longer served. Call
    /// it after the namespace in force was replaced: a LISTEN checked after
    /// that is checked against the new one. `isGone` is asked without the
    /// lock, so that publishing is not held up by a client listening to
    /// thousands of paths.
    func endListens(where isGone: (String) -> Bool) {
        let listening = state.withLock { $0.clients.mapValues(\.paths) }
        var ended: [Int: Set<String>] = [:]
        for (id, paths) in listening {
            let gone = paths.filter(isGone)
            if !gone.isEmpty { ended[id] = gone }
        }
        guard !ended.isEmpty else { return }
        // A path gone from the namespace in force cannot have been listened
        // to again since: only paths of the namespace in force are.
        state.withLock { state in
            for (id, gone) in ended { state.clients[id]?.paths.subtract(gone) }
        }
    }

    /// Queues each text in `texts` as one text frame for every client, in
    /// order.
    func sendToEveryone(_ texts: [String]) {
        guard !texts.isEmpty else { return }
        let clients = state.withLock { Array($0.clients.values) }
        for client in clients {
            for text in texts { yield(.text(text), to: client) }
        }
    }

    /// Queues `message` as one binary OSC frame for every client listening
    /// to its address (exactly that address: LISTEN to `/a` does not cover
    /// `/a/b`).
    public func publish(_ message: OSCMessage) {
        let clients = state.withLock { state in
            state.clients.values.filter { $0.paths.contains(message.address) }
        }
        guard !clients.isEmpty, let bytes = OSCCodec.encode(.message(message)) else { return }
        let frame = Frame.binary(ByteBuffer(bytes: bytes))
        for client in clients { yield(frame, to: client) }
    }

    /// Queues one frame for one client; false when it is gone.
    func send(_ frame: ByteBuffer, to id: Int) -> Bool {
        guard let client = state.withLock({ $0.clients[id] }) else { return false }
        yield(.binary(frame), to: client)
        return true
    }

    private func yield(_ frame: Frame, to client: Client) {
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
