import Catalogue
import OSC
import Synchronization

/// The other Crosspoint rigs DNS-SD finds on the network, by name and page
/// address (`/rigs`: the page links to them). One part of the controller,
/// owning its state and its lock.
final class OtherRigs: Sendable {
    private let rigs = Mutex<[Rig]>([])

    struct Rig: Equatable {
        let name: String
        let url: String
    }

    /// Keeps the rigs found, sorted by name; whether they differ from before.
    func update(_ found: [(name: String, url: String)]) -> Bool {
        let sorted = found.map { Rig(name: $0.name, url: $0.url) }.sorted { ($0.name, $0.url) < ($1.name, $1.url) }
        return rigs.withLock { rigs in
            guard rigs != sorted else { return false }
            rigs = sorted
            return true
        }
    }

    /// `/rigs ,s… name url name url …`.
    func message() -> OSCMessage {
        OSCMessage(Command.Name.rigs.address, rigs.withLock { $0 }.flatMap { [OSCArgument.string($0.name), .string($0.url)] })
    }
}
