import Catalogue
import OSC
import Synchronization

/// What the JACK supervisor last saw of the other clients: the full names
/// of their output ports, sorted (`/jack/ports`: what a source may be
/// patched to). One part of the controller, owning its state and its lock.
final class JackView: Sendable {
    private let ports = Mutex<[String]>([])

    /// Keeps the ports the supervisor saw; whether they differ from before.
    func update(_ seen: [String]) -> Bool {
        let sorted = seen.sorted()
        return ports.withLock { ports in
            guard ports != sorted else { return false }
            ports = sorted
            return true
        }
    }

    /// `/jack/ports ,s…`.
    func portsMessage() -> OSCMessage {
        OSCMessage(Command.Name.jackPorts.address, ports.withLock { $0 }.map { .string($0) })
    }
}
