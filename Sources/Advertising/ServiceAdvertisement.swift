import CAvahi
import Logging
import Synchronization

/// Advertises services over DNS-SD through the Avahi daemon (mDNS), under
/// one instance name: what tablets' host browsers (`_osc._udp`) and
/// OSCQuery clients (`_oscjson._tcp`) look for.
///
/// Avahi runs on its own thread (`avahi_threaded_poll`); every Avahi object
/// is touched there, or elsewhere only under the poll's lock. The rig never
/// waits for the daemon and never fails for want of it:
///
/// - No daemon at start (or no system D-Bus): one line is logged, and the
///   services are registered when the daemon appears (the client is made
///   with `AVAHI_CLIENT_NO_FAIL`; without D-Bus, it is tried again every
///   five seconds).
/// - The daemon leaves or restarts: the client is made anew and registers
///   again.
/// - The name is taken on the network (or by another program on this
///   machine): Avahi's alternative name (`Name #2`, …) is taken and logged
///   at notice level; ``name`` and the `renamed` callback follow.
///
/// ``stop()`` withdraws the services (the daemon sends goodbye packets).
///
/// It also finds the other rigs (`neighbourType`: their services marked
/// `app=crosspoint`), for the page's list of rigs
/// (`ServiceAdvertisement+Neighbours.swift`).
public final class ServiceAdvertisement: @unchecked Sendable {
    /// What is advertised.
    public let services: [AdvertisedService]
    /// The network interface to advertise on (an interface index), or nil
    /// for every interface the daemon uses.
    public let interface: Int32?
    let logger: Logger
    let renamed: @Sendable (String) -> Void
    /// The service type whose other instances are browsed for (nil: none),
    /// and who is told the rigs found, sorted, on Avahi's thread.
    let neighbourType: String?
    let neighboursChanged: @Sendable ([Neighbour]) -> Void
    /// How long to wait before trying again to reach a daemon when the
    /// client could not even be made (no system D-Bus).
    static let retryMilliseconds: UInt32 = 5000

    /// The name now advertised (or to be advertised once a daemon runs).
    private let currentName: Mutex<String>
    /// Avahi's objects. Touched on Avahi's thread, or under the poll's lock.
    var poll: OpaquePointer?
    var client: OpaquePointer?
    var group: OpaquePointer?
    var retry: OpaquePointer?
    var browser: OpaquePointer?
    /// The other rigs found, by instance name.
    var neighbours: [String: Neighbour] = [:]
    /// The absence of a daemon is logged once, until one has been reached.
    var absenceLogged = false
    /// The group's services are established under the current name.
    var established = false
    /// `stop()` has begun: no callback starts anything new.
    var stopping = false

    /// - Parameters:
    ///   - name: the instance name (valid as ``problem(withName:)`` checks).
    ///   - services: the types and ports, all under `name`.
    ///   - interface: an interface index to advertise on only; nil for all.
    ///   - renamed: told the new name after a collision, on Avahi's thread.
    ///   - neighbourType: browse for other rigs' services of this type.
    ///   - neighboursChanged: told the rigs found whenever they change, on Avahi's thread.
    public init(name: String, services: [AdvertisedService], interface: Int32? = nil, logger: Logger,
                renamed: @escaping @Sendable (String) -> Void = { _ in }, neighbourType: String? = nil,
                neighboursChanged: @escaping @Sendable ([Neighbour]) -> Void = { _ in }) {
        currentName = Mutex(name)
        self.services = services
        self.interface = interface
        self.logger = logger
        self.renamed = renamed
        self.neighbourType = neighbourType
        self.neighboursChanged = neighboursChanged
    }

    deinit {
        stop()
    }

    /// The instance name now advertised: the one given, or Avahi's
    /// alternative after a collision.
    public var name: String { currentName.withLock { $0 } }

    /// True while the daemon has every service established under ``name``.
    public var isEstablished: Bool {
        guard let poll else { return false }
        avahi_threaded_poll_lock(poll)
        defer { avahi_threaded_poll_unlock(poll) }
        return established
    }

    func setName(_ name: String) { currentName.withLock { $0 = name } }

    /// Starts Avahi's thread and asks the daemon to advertise. Returns at
    /// once; nothing here fails the caller (problems are logged).
    public func start() {
        guard poll == nil, !services.isEmpty else { return }
        guard let made = avahi_threaded_poll_new() else {
            logger.error("DNS-SD: cannot start Avahi's event loop; not advertised")
            return
        }
        poll = made
        connect() // the loop is not running yet: no lock needed
        if avahi_threaded_poll_start(made) < 0 {
            logger.error("DNS-SD: cannot start Avahi's thread; not advertised")
            release()
            avahi_threaded_poll_free(made)
            poll = nil
        }
    }

    /// Withdraws every service, disconnects from the daemon and ends
    /// Avahi's thread. Safe to call more than once.
    public func stop() {
        guard let poll else { return }
        avahi_threaded_poll_lock(poll)
        stopping = true
        let wasEstablished = established
        release()
        avahi_threaded_poll_unlock(poll)
        avahi_threaded_poll_stop(poll)
        avahi_threaded_poll_free(poll)
        self.poll = nil
        if wasEstablished { logger.info("DNS-SD: withdrawn", metadata: ["name": "\(name)"]) }
    }

    /// Problems with `name` as a DNS-SD instance name, or nil: it must be
    /// non-empty, at most 63 bytes of UTF-8 (one DNS label), and hold no
    /// control characters.
    public static func problem(withName name: String) -> String? {
        if name.isEmpty { return "the name is empty" }
        if name.utf8.count > 63 { return "the name is \(name.utf8.count) bytes of UTF-8; DNS-SD allows 63" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "the name holds control characters"
        }
        return nil
    }
}
