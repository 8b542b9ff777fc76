import Delivery
import Access
import Catalogue
import Logging
import MixCore
import SceneModel
import OSC
import Presets
import Synchronization
import SystemSupport

/// The control side of the rig: takes every packet, whole, from every
/// transport's threads and the scheduler's, one at a time (`serial`), so
/// that nothing comes between the messages of a bundle; resolves each
/// message through the address space, checks it against the sender's role
/// and its arguments before anything changes (a bad argument for any target
/// rejects the message with an `/error` reply), and hands it to the part
/// that owns what it changes:
///
/// - `live` (`LiveScene`): the scene and its changes: the rig state, undo,
///   the packet's changes for the audio thread, fades;
/// - `sessions` (`Sessions`): roles, logins, query allowances, the sessions
///   holding subscriptions;
/// - `subscriptions` (`Subscriptions`): feedback, meters, change listeners,
///   later replies;
/// - `presets` (`PresetDesk`): the preset commands and the store;
/// - `scheduler` (`BundleScheduler`): timed bundles waiting for their time;
/// - `jack` (`JackView`): what the JACK supervisor last saw of the other
///   clients' ports (`/jack/ports`);
/// - `learning` (`Learning`): MIDI learn's requests, for the surface desk.
///
/// Each owns its state and its lock; the lock order is in
/// docs/architecture.md. A packet's changes reach the audio thread together
/// (`LiveScene.flush`, once per packet).
public final class Controller: @unchecked Sendable {
    public let mixer: Mixer
    /// Every kind of parameter and command.
    public let catalogue: Catalogue
    let live: LiveScene
    let sessions: Sessions
    let subscriptions: Subscriptions
    let presets: PresetDesk
    let jack = JackView()
    let otherRigs = OtherRigs()
    /// MIDI learn's requests for the surface desk; nil: no controllers.
    public let learning: Learning?
    /// Where bundles for the future wait; nil: they apply at once.
    let scheduler: BundleScheduler?
    /// For what happens outside a message (a session gone, rules reloaded);
    /// a message logs through `live.log`, silent while rehearsed.
    let logger: Logger
    /// What `/status` reports besides the controller's own figures, by
    /// field (`Catalogue.statusFields`; sent in the catalogue's order).
    let statusReport: @Sendable (OSCPeer) -> [Reply.Name: OSCArgument]
    /// The state file's keeper, for its note (`/status/state_note`, and
    /// its acknowledgement); nil where nothing is saved (tests, tools).
    let keeper: StateKeeper?
    /// Told when the rig changed size (`/rig/inputs`, `/rig/outputs`),
    /// under the scene's lock: keep it quick (hand the work to a queue).
    let resized: @Sendable () -> Void
    /// Bundles that arrived after their time.
    let lateBundles = Atomic<Int>(0)
    /// Held for the whole of a packet, and of a due bundle the scheduler
    /// hands over: packets are handled one at a time, whatever thread they
    /// come from. Taken before any part's lock, never while holding one.
    let serial = Mutex<Void>(())
    /// The furthest ahead a bundle's time may lie.
    public static let bundleHorizon: Double = 3600

    /// `initial` is the state to start from; the mixer must already hold its
    /// scene. `stateChanged` is told after every change of the rig state
    /// (scene, safes, preset), under the scene's lock: keep it quick.
    public init(state initial: RigState, mixer: Mixer, catalogue: Catalogue = Catalogue(), store: PresetStore,
                smoothingSeconds: Float, directOuts: DirectTap = .off, logger: Logger,
                subscriptions: Subscriptions = Subscriptions(),
                scheduler: BundleScheduler? = nil, status: @escaping @Sendable (OSCPeer) -> [Reply.Name: OSCArgument] = { _ in [:] },
                keeper: StateKeeper? = nil, learning: Learning? = nil, stateChanged: @escaping @Sendable () -> Void = {},
                resized: @escaping @Sendable () -> Void = {}) {
        self.mixer = mixer
        self.catalogue = catalogue
        live = LiveScene(state: initial, mixer: mixer, catalogue: catalogue, smoothing: smoothingSeconds,
                         directOuts: directOuts, logger: logger, stateChanged: stateChanged)
        sessions = Sessions()
        self.subscriptions = subscriptions
        presets = PresetDesk(store: store, scene: live, reply: subscriptions.reply)
        self.scheduler = scheduler
        statusReport = status
        self.keeper = keeper
        self.learning = learning
        self.resized = resized
        self.logger = logger
    }

    public var addressSpace: AddressSpace { live.addressSpace }
    /// The ramp time of a change that names no fade, in seconds.
    public var smoothing: Float { live.smoothing }

    /// The live scene (for tests and tools on the control side).
    public var scene: Scene { live.snapshot().scene }

    /// A copy of the whole rig state, for saving.
    public func snapshot() -> RigState { live.snapshot() }

    // MARK: - Messages

    /// Handles one packet and returns the replies for its sender. A bundle
    /// is handled whole (Controller+Bundles.swift): its messages take effect
    /// together, at its time. Bundles whose time has come are handled first.
    public func handle(_ packet: OSCPacket, from peer: OSCPeer) -> [OSCPacket] {
        serial.withLock { _ in
            catchUp()
            switch packet {
            case .message(let message):
                return live.lock.withLock { _ in
                    defer { live.flush() }
                    return process(message, from: peer)
                }
            case .bundle(let bundle):
                return handle(bundle, from: peer)
            }
        }
    }

    /// One message of a packet, under the scene's lock, as one transaction:
    /// its replies; its changes wait in the show's `pending`.
    func process(_ message: OSCMessage, from peer: OSCPeer) -> [OSCPacket] {
        transaction(.client(peer)) { dispatch(message, from: peer) }
    }

    /// Resolves, reads the button of, checks and carries out one message,
    /// under the scene's lock.
    func dispatch(_ received: OSCMessage, from peer: OSCPeer) -> [OSCPacket] {
        let targets: [Target]
        switch addressSpace.resolve(received.address) {
        case .failure where AddressSpace.isTabletChatter(received.address): return []
        case .failure(let error): return reject(received, error.description, from: peer, unresolved: true)
        case .success(let resolved): targets = resolved
        }
        // An action's button: a release does nothing, from anyone; a press
        // is the action without it (Controller+Buttons.swift).
        let message: OSCMessage
        do {
            guard let pressed = try Self.pressed(received, on: targets) else { return [] }
            message = pressed
        } catch {
            return reject(received, error.reason, from: peer)
        }
        let role = sessions.role(of: peer)
        guard permits(role, targets, message) else { return reject(message, role.refusal, from: peer) }
        if live.rehearsing && !Self.isRehearsed(targets, message) { return [] }
        if case .touch? = targets.first {
            return touch(targets, message, from: peer)
        }
        if case .recallPreset(let name)? = targets.first {
            do {
                return try presets.recall(named: name)
            } catch {
                return reject(message, error.reason, from: peer)
            }
        }
        if let name = targets.first?.commandName, let replies = run(name, targets, message, from: peer) {
            return replies
        }
        // `…/delta` without a step is no query: the check below refuses it.
        if message.arguments.isEmpty && targets.first?.isDelta != true {
            let replies = targets.flatMap { answer($0, from: peer) }
            let bytes = replies.reduce(0) { $0 + $1.messages.reduce(0) { $0 + 4 + $1.encodedSize } }
            guard sessions.spend(bytes, by: peer) else {
                return reject(message, "query answers \(bytes) bytes, over the \(QueryAllowance.bytesPerSecond) a client may have a second; /subscribe for the whole state", from: peer)
            }
            return replies.count > 1 ? Self.packed(replies) : replies
        }
        return change(targets, message, from: peer)
    }

    /// Many replies (a wildcard query) travel in bundles that fit a datagram.
    static func packed(_ replies: [OSCPacket]) -> [OSCPacket] {
        var packets: [OSCPacket] = []
        var bundle: [OSCMessage] = []
        var size = 16
        for reply in replies {
            guard case .message(let message) = reply else { packets.append(reply); continue }
            let length = 4 + message.encodedSize
            if size + length > FeedbackHub.datagramLimit && !bundle.isEmpty {
                packets.append(.bundle(bundle))
                bundle = []
                size = 16
            }
            bundle.append(message)
            size += length
        }
        if !bundle.isEmpty { packets.append(.bundle(bundle)) }
        return packets
    }

    /// `unresolved`: the address named nothing (a typing mistake may be a
    /// `/login`): its text arguments are not logged, as a login's never are.
    func reject(_ message: OSCMessage, _ reason: String, from peer: OSCPeer, unresolved: Bool = false) -> [OSCPacket] {
        Self.refusal(message, reason, from: peer, logger: live.log, unresolved: unresolved)
    }

    /// The `/error ,ss ADDRESS REASON` reply to a message, logged.
    static func refusal(_ message: OSCMessage, _ reason: String, from peer: OSCPeer, logger: Logger,
                        unresolved: Bool = false) -> [OSCPacket] {
        let shown = unresolved || mayBeLogin(message.address) ? withholdingText(message) : "\(message)"
        logger.warning("rejected \(shown) from \(peer): \(reason.cut(to: 512))")
        // The address as it came, cut to 256 characters: a 60 KB address is
        // not echoed whole.
        return [.message(OSCMessage(Reply.Name.error.address, [.string(message.address.cut()), .string(reason.cut(to: 512))]))]
    }
}
