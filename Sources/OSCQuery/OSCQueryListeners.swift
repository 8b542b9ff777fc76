import NIOCore
import OSC
import Synchronization
import SystemSupport

/// The WebSocket clients of a server and the addresses each LISTENs to.
/// `publish` may be called from any thread; each client has its own queue
/// of frames bounded in bytes (`FrameQueue`: meters make way first),
/// drained by its connection's task. Made before the server that fills
/// it, so that what publishes changes can be given it when made
/// (`OSCQueryServer.init(listeners:)`).
public final class OSCQueryListeners: Sendable {
    /// What waits in a client's queue: a binary OSC frame (a value, a
    /// reply, meters) or a text frame (a command: PATH_ADDED, PATH_REMOVED).
    enum Frame: Sendable {
        case binary(ByteBuffer)
        case text(String)
    }

    struct Client {
        let host: String
        var paths: Set<String> = []
        let queue: FrameQueue
    }

    private struct State {
        var nextID = 0
        var clients: [Int: Client] = [:]
        var isClosed = false
    }

    private let state = Mutex(State())
    private let dropped = Atomic<Int>(0)
    /// A giving back of freed memory is due (`remove`).
    private let trimDue = Atomic<Bool>(false)

    public init() {}

    /// Registers a client; nil once the server is stopping.
    func add(host: String) -> (id: Int, queue: FrameQueue)? {
        let queue = FrameQueue()
        let id: Int? = state.withLock { state in
            guard !state.isClosed else { return nil }
            defer { state.nextID += 1 }
            state.clients[state.nextID] = Client(host: host, queue: queue)
            return state.nextID
        }
        guard let id else { queue.finish(); return nil }
        return (id, queue)
    }

    /// A client has gone. What its frames held goes back to the system
    /// soon after (glibc keeps freed memory otherwise), once for a burst of
    /// clients going together.
    func remove(_ id: Int) {
        state.withLock { $0.clients.removeValue(forKey: id) }?.queue.finish()
        guard !trimDue.exchange(true, ordering: .relaxed) else { return }
        Task.detached { [self] in
            try? await Task.sleep(for: .milliseconds(250))
            trimDue.store(false, ordering: .relaxed)
            FreedMemory.giveBack()
        }
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

    /// Queues one frame for one client (a meter frame `droppable`); false
    /// when it is gone.
    func send(_ frame: ByteBuffer, to id: Int, droppable: Bool = false) -> Bool {
        guard let client = state.withLock({ $0.clients[id] }) else { return false }
        return yield(.binary(frame), to: client, droppable: droppable)
    }

    @discardableResult
    private func yield(_ frame: Frame, to client: Client, droppable: Bool = false) -> Bool {
        switch client.queue.push(frame, droppable: droppable) {
        case .queued(let count):
            if count > 0 { dropped.add(count, ordering: .relaxed) }
            return true
        case .overflowed, .finished:
            return false
        }
    }

    /// How many more packets of up to `packetSize` bytes feedback may queue
    /// for a client while leaving half its queue's bytes to LISTEN values
    /// and replies: what feedback may add without ever closing it. 0 when
    /// it is gone.
    func room(for id: Int, packetSize: Int) -> Int {
        guard let queue = state.withLock({ $0.clients[id]?.queue }) else { return 0 }
        return max(0, FrameQueue.byteLimit / 2 - queue.otherBytes) / max(1, packetSize)
    }

    /// Meter frames dropped for one client because it did not read them in time.
    func droppedCount(for id: Int) -> Int {
        state.withLock { $0.clients[id]?.queue }?.dropped ?? 0
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

    /// Meter frames dropped because a client's queue was full.
    var droppedCount: Int { dropped.load(ordering: .relaxed) }
}
