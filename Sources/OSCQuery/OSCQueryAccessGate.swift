import Access
import Logging
import Synchronization

/// Access control for HTTP and WebSocket: asks the door in force (the one
/// the OSC server asks too) about each client and counts what it refuses;
/// and the model in force, which every request and LISTEN reads through it.
final class OSCQueryAccessGate: Sendable {
    let door: AccessDoor
    private let current: Mutex<any OSCQueryModel>
    private let logger: Logger
    private let denied = Atomic<Int>(0)

    init(model: any OSCQueryModel, door: AccessDoor, logger: Logger) {
        current = Mutex(model)
        self.door = door
        self.logger = logger
    }

    /// The model in force. An answer takes it once and keeps it to the
    /// end, even when it is replaced meanwhile.
    var model: any OSCQueryModel { current.withLock { $0 } }

    /// Puts `model` in force, and returns the one it replaces.
    func replaceModel(with model: any OSCQueryModel) -> any OSCQueryModel {
        current.withLock { current in
            defer { current = model }
            return current
        }
    }

    /// Requests, connections and set attempts refused so far.
    var deniedCount: Int { denied.load(ordering: .relaxed) }

    /// The client's access; a denial is counted and logged as `what`.
    func admit(_ host: String, for what: @autoclosure () -> String) -> AccessPolicy.Access {
        let access = door.access(forHost: host)
        if access == .denied { refuse(host, what()) }
        return access
    }

    /// Counts and logs one refused request.
    func refuse(_ host: String, _ what: String) {
        denied.add(1, ordering: .relaxed)
        logger.debug("OSCQuery: refused", metadata: ["host": "\(host)", "request": "\(what)"])
    }
}
