import Access
import Catalogue
import Dispatch
import FoundationEssentials
import Logging
import MixCore
import OSC
import Presets
import Synchronization

/// The control side of the rig: keeps the authoritative scene, answers the
/// OSC address space, and turns every accepted change into ramps for the
/// audio thread.
///
/// Packets come whole (`handle`), from every transport's threads and from
/// the scheduler's: the controller takes them one at a time (`serial`), so
/// that nothing comes between the messages of a bundle. The state keeper,
/// the preset writer and discovery read or touch the state from their own
/// threads: `lock` keeps them apart from the packet being handled (never
/// the audio thread: it only sees the queue). A message is checked whole
/// before anything changes: a bad argument for any target it names rejects
/// it with an `/error` reply and changes nothing.
public final class Controller: @unchecked Sendable {
    public let mixer: Mixer
    public let addressSpace: AddressSpace
    /// The ramp time of a change that names no fade, in seconds.
    public let smoothing: Float
    let store: PresetStore
    /// Every kind of parameter, and where the kernel keeps each ramp.
    public let catalogue: Catalogue
    let ramps: RampLayout
    /// Silenced while a timed bundle is rehearsed (`rehearse`): read it only
    /// under the lock (a closure run elsewhere takes a copy first).
    var logger: Logger
    /// What `/status` reports besides the controller's own figures; set it
    /// before messages arrive.
    public var statusReport: @Sendable () -> [(String, OSCArgument)]
    /// Called after every change of the rig state (scene, safes, preset),
    /// under the lock: keep it quick.
    let stateChanged: @Sendable () -> Void
    /// Held for the whole of a packet, and of a due bundle the scheduler
    /// hands over: packets are handled one at a time, whatever thread they
    /// come from. Taken before `lock`, never while holding it.
    let serial = Mutex<Void>(())
    let lock = Mutex<Void>(())

    // The state, guarded by `lock`.
    var state: RigState
    /// The state just before the last recall or undo, for `/preset/undo`.
    var undoState: RigState?
    /// The changes of the packet being handled: they go to the mixer as one
    /// batch when it has been handled (`flush`).
    var pending: [Change] = []
    /// True while a timed bundle's audio changes are worked out ahead of its time.
    var rehearsing = false
    /// The furthest ahead a bundle's time may lie.
    public static let bundleHorizon: Double = 3600
    /// Where bundles for the future wait; nil: they apply at once.
    public var scheduler: BundleScheduler?
    var lateBundles = 0
    /// Set by every edit that changes the scene; cleared per message.
    var sceneChanged = false
    /// Set by a save, delete or rename: subscribers are sent the new list.
    var presetListChanged = false
    /// Every parameter changed by the current message, for feedback.
    var touched: [Target] = []
    /// Parameters fading now, by their plain target: what subscribers are
    /// shown as they move (Controller+Fades.swift).
    var fades: [Target: Fade] = [:]
    /// The order fading parameters take turns in (`publishFades`), each once.
    var fadeTurns: [Target] = []
    var fadeTurnKeys: Set<Target> = []
    var fadeCursor = 0
    /// The earliest end of a fade not yet seen over.
    var nextFadeEnd: ContinuousClock.Instant?
    /// Bytes of query replies each session may still have this second.
    var queryAllowance = QueryAllowance()
    /// The sessions holding subscriptions, and their limits.
    var sessions = SessionRoll()
    /// The access file's rules; nil: none, and every admitted client is
    /// `Role.full` or `Role.readOnly` (Controller+Roles.swift).
    var accessRules: AccessRules?
    /// Sessions logged in with a code, and wrong codes by host.
    var logins = Logins<OSCPeer>()
    var loginAttempts = LoginAttempts()
    /// Delayed `/login` refusals not sent yet (Controller+Roles.swift).
    let waitingRefusals = Atomic<Int>(0)
    /// Where feedback goes; nil: no feedback.
    public var feedback: FeedbackHub?
    /// Where subscribers' full states are made, one at a time, off the lock
    /// (`waitForFullStates` waits for those asked so far).
    let fullStates = DispatchQueue(label: "crosspoint.full-states", qos: .utility)
    /// Whether a client that changes something is subscribed to feedback
    /// (changes from then on, not the full state), as if it had sent
    /// `/subscribe`. Set it before messages arrive.
    public var autoSubscribe = false
    /// Where meters go; nil: no meters.
    public var meters: MeterStream?
    /// Also told of every change, with the same messages as feedback (for
    /// OSCQuery's WebSocket listeners). Called under the controller's lock.
    public var onChange: (@Sendable ([OSCMessage]) -> Void)?
    /// Whether `onChange` has anyone to tell.
    public var hasListeners: @Sendable () -> Bool = { false }
    /// Where replies go that come after `handle` has returned: a preset
    /// save, delete or rename is answered once the disk holds it
    /// (Controller+Presets.swift), from the preset writer's thread; the
    /// replies of a timed bundle handled at its time. Not called under the
    /// lock. Set it before messages arrive.
    public var reply: @Sendable (OSCPacket, OSCPeer) -> Void = { _, _ in }

    /// `initial` is the state to start from; the mixer must already hold its scene.
    public init(state initial: RigState, mixer: Mixer, catalogue: Catalogue = Catalogue(), store: PresetStore,
                smoothingSeconds: Float, logger: Logger,
                status: @escaping @Sendable () -> [(String, OSCArgument)] = { [] },
                stateChanged: @escaping @Sendable () -> Void = {}) {
        state = initial
        self.mixer = mixer
        self.store = store
        self.catalogue = catalogue
        addressSpace = AddressSpace(inputs: initial.scene.inputCount, outputs: initial.scene.outputCount,
                                    catalogue: catalogue)
        smoothing = smoothingSeconds
        ramps = mixer.rampLayout
        self.logger = logger
        statusReport = status
        self.stateChanged = stateChanged
    }

    /// The live scene (for tests and tools on the control side).
    public var scene: Scene { lock.withLock { _ in state.scene } }

    /// A copy of the whole rig state, for saving.
    public func snapshot() -> RigState { lock.withLock { _ in state } }

    /// Queues changes for the audio thread, with the rest of the packet's.
    func submit(_ changes: [Change]) {
        pending += changes
    }

    /// Hands the packet's changes to the mixer, as one batch.
    func flush() {
        guard !pending.isEmpty else { return }
        mixer.submit(pending)
        pending.removeAll(keepingCapacity: true)
    }

    // MARK: - Messages

    /// Handles one packet and returns the replies for its sender. A bundle
    /// is handled whole (Controller+Bundles.swift): its messages take effect
    /// together, at its time. Bundles whose time has come are handled first.
    public func handle(_ packet: OSCPacket, from peer: OSCPeer) -> [OSCPacket] {
        serial.withLock { _ in
            catchUp()
            switch packet {
            case .message(let message):
                return lock.withLock { _ in
                    defer { flush() }
                    return process(message, from: peer)
                }
            case .bundle(let bundle):
                return handle(bundle, from: peer)
            }
        }
    }

    /// One message of a packet, under the lock: its replies; its changes
    /// wait in `pending`. The scene is marked modified, the state keeper
    /// told, and feedback published, per message.
    func process(_ message: OSCMessage, from peer: OSCPeer) -> [OSCPacket] {
        sceneChanged = false
        touched.removeAll(keepingCapacity: true)
        for destination in feedback?.renew(peer) ?? [] { sessions.heard(destination) }
        meters?.renew(peer)
        sessions.heard(peer)
        let before = (state.safes, state.preset, state.modified)
        let replies = dispatch(message, from: peer)
        if sceneChanged { state.modified = true }
        if sceneChanged || before != (state.safes, state.preset, state.modified) { stateChanged() }
        // Feedback is built only when someone listens.
        if !touched.isEmpty && ((feedback?.count ?? 0) > 0 || hasListeners()) {
            let messages = feedbackMessages(for: touched)
            feedback?.publish(messages)
            onChange?(messages)
        }
        // The preset state is feedback too: a page or a layout shows which
        // preset is current, and the list, as anyone changes them.
        if let feedback, feedback.count > 0 {
            var messages: [OSCMessage] = []
            if before.1 != state.preset || before.2 != state.modified { messages.append(currentPreset()) }
            if presetListChanged { messages.append(presetList()) }
            feedback.publish(messages)
        }
        presetListChanged = false
        return replies
    }

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
        let role = role(of: peer)
        guard permits(role, targets, message) else { return reject(message, role.refusal, from: peer) }
        if rehearsing && !Self.isRehearsed(targets, message) { return [] }
        if case .touch? = targets.first {
            return touch(targets, message, from: peer)
        }
        if case .recallPreset(let name)? = targets.first {
            do {
                return try recall(named: name)
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
            guard queryAllowance.spend(bytes, by: peer) else {
                return reject(message, "query answers \(bytes) bytes, over the \(QueryAllowance.bytesPerSecond) a client may have a second; /subscribe for the whole state", from: peer)
            }
            return replies.count > 1 ? Self.packed(replies) : replies
        }
        var edits: [Edit] = []
        do {
            for target in targets { edits.append(try edit(target, ArgumentReader(arguments: message.arguments))) }
        } catch {
            return reject(message, error.reason, from: peer)
        }
        var changes: [Change] = []
        // Solo gates move only when a solo does; working them out visits every source.
        let solos = edits.contains { edit in
            guard case .set(let number, _, _, _) = edit, case .soloGate = catalogue.parameters[number].kernel else { return false }
            return true
        }
        let gates = solos ? soloGates() : []
        for edit in edits { apply(edit, into: &changes) }
        if solos { updateSoloGates(from: gates, seconds: smoothing, into: &changes) }
        logger.debug("\(peer) \(message)")
        submit(changes)
        // What follows is about the sender's session, not the sound: not while rehearsing.
        guard !rehearsing else { return [] }
        if autoSubscribe, let feedback { admit(feedback.subscribe(peer, port: nil, automatically: true), .feedback) }
        // A value set at one parameter's own address is not echoed to its sender.
        if targets.count == 1, case .parameter = targets[0], !OSCAddressPattern.isPattern(message.address) {
            feedback?.noteOwnValue(message, from: peer)
        }
        return []
    }

    /// Whether a message would change anything in the rig at `target` (refused to
    /// read-only clients): a parameter or safe set, and the commands the
    /// catalogue says change the rig (`Command.Effect`).
    func changes(_ target: Target, _ message: OSCMessage) -> Bool {
        switch target {
        case .command(let name):
            switch Catalogue.command(name).effect {
            case .none: false
            case .changes: true
            case .changesWithArguments: !message.arguments.isEmpty
            }
        case .recallPreset: true
        case .touch, .current: false
        case .parameter, .delta, .safe: !message.arguments.isEmpty
        }
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
        let shown = unresolved || Self.mayBeLogin(message.address) ? Self.withholdingText(message) : "\(message)"
        logger.warning("rejected \(shown) from \(peer): \(reason)")
        return [.message(OSCMessage("/error", [.string(message.address), .string(reason)]))]
    }

    // MARK: - Checking

    /// A checked change to one target, not yet applied.
    enum Edit {
        /// Parameter `number` at a place to a value, over a fade (nil: the smoothing time).
        case set(Int, Parameter.Place, Parameter.Value, fade: Float?)
        case safe(Target.Safe, Bool)
        case map([Int])
    }

    private func edit(_ target: Target, _ args: ArgumentReader) throws(ArgumentReader.Failure) -> Edit {
        switch target {
        case .parameter(let number, let place, let form):
            let (value, fade) = try Self.read(catalogue.parameters[number].kind, form, args)
            return .set(number, place, value, fade: fade)
        case .delta(let number, let place, let form):
            // From the scene's value now: deltas earlier in the bundle have moved it.
            let (step, fade) = try args.stepAndFade()
            let parameter = catalogue.parameters[number]
            let value = parameter.kind.stepped(form, from: parameter.get(state.scene, place), by: step)
            return .set(number, place, value, fade: fade.map(Float.init))
        case .safe(let safe):
            return .safe(safe, try args.onOff())
        case .command(.matrixMap):
            return .map(try args.channelNumbers(in: 0...state.scene.inputCount, atMost: state.scene.outputCount))
        case .current:
            throw ArgumentReader.Failure(reason: "query only")
        case .touch, .command, .recallPreset:
            // Touches and commands branch off before (an action's button is read first:
            // Controller+Buttons.swift); only a pattern mixing them with
            // parameters could come here.
            throw ArgumentReader.Failure(reason: "takes no arguments")
        }
    }

    /// A parameter's value (and fade) from the arguments, as its kind and
    /// the address's form take it (`Parameter+Forms`): a level in gain, dB
    /// or fader position, a number in its range, on/off, a text.
    static func read(_ kind: Parameter.Kind, _ form: Target.Form,
                     _ args: ArgumentReader) throws(ArgumentReader.Failure) -> (Parameter.Value, Float?) {
        switch kind {
        case .level, .number:
            let range = kind.range(form) ?? 0...0
            let (number, fade) = try args.valueAndFade(in: Double(range.lowerBound)...Double(range.upperBound))
            return (kind.value(number, in: form), fade.map(Float.init))
        case .toggle:
            return (.toggle(try args.onOff()), nil)
        case .text(let maxLength):
            return (.text(try args.name(maxLength: maxLength)), nil)
        }
    }

    private func apply(_ edit: Edit, into changes: inout [Change]) {
        switch edit {
        case .set(let number, let place, let value, let fade):
            set(number, at: place, to: value, seconds: fade ?? smoothing, into: &changes)
        case .safe(let safe, let on):
            setSafe(safe, on)
        case .map(let inputs):
            for (index, input) in inputs.enumerated() {
                for n in stride(from: 1, through: state.scene.inputCount, by: 1) {
                    setCrosspoint(n, index + 1, n == input ? 1 : 0, seconds: smoothing, into: &changes)
                }
            }
        }
    }

    func clearMatrix(into changes: inout [Change]) {
        for n in stride(from: 1, through: state.scene.inputCount, by: 1) {
            for m in stride(from: 1, through: state.scene.outputCount, by: 1) {
                setCrosspoint(n, m, 0, seconds: smoothing, into: &changes)
            }
        }
    }
}
