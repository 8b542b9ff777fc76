import OSC
import Synchronization

/// The access policy in force, shared by everything that admits clients
/// (the OSC server's UDP and TCP, the OSCQuery server) and replaced whole
/// when the rules change (`serve --access`, reloaded on SIGHUP). Readers
/// that keep an answer per client note `generation` and ask again when it moves.
public final class AccessDoor: Admission {
    private let current: Mutex<AccessPolicy>
    private let changes = Atomic<Int>(0)

    public init(_ policy: AccessPolicy) {
        current = Mutex(policy)
    }

    public var policy: AccessPolicy { current.withLock { $0 } }

    /// How many times the policy has been replaced.
    public var generation: Int { changes.load(ordering: .acquiring) }

    public func replace(with policy: AccessPolicy) {
        current.withLock { $0 = policy }
        changes.add(1, ordering: .releasing)
    }

    public func access(for ip: [UInt8]) -> AccessPolicy.Access {
        current.withLock { $0.access(for: ip) }
    }

    public func access(forHost host: String) -> AccessPolicy.Access {
        current.withLock { $0.access(forHost: host) }
    }
}
