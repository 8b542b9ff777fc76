import Access
import Logging
import Synchronization

/// Access control for HTTP and WebSocket: asks the door in force (the one
/// the OSC server asks too) about each client and counts what it refuses.
final class OSCQueryAccessGate: Sendable {
    let model: any OSCQueryModel
    let door: AccessDoor
    private let logger: Logger
    private let denied = Atomic<Int>(0)

    init(model: any OSCQueryModel, door: AccessDoor, logger: Logger) {
        self.model = model
        self.door = door
        self.logger = logger
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
