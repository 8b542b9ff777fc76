import Logging
import MIDI
import OSC
import RigControl
import Synchronization
import SystemSupport

/// The control side of the rig's MIDI controllers: a thread of its own
/// (`surfaces`) takes each surface's events from its ring
/// (`SurfaceWires.incoming`, filled by the audio thread), turns each bound
/// one into OSC messages (`MIDISurface`) and hands them to the controller
/// as a client on the loopback address would send them (as peer
/// `.surface(NAME)`; subscribed to feedback once, at start, never by
/// `--auto-subscribe`): the same checks,
/// roles, ramps and feedback to every other client. An `/error` the rig
/// answers is logged once per surface and text. While no event waits, the
/// thread sleeps between looks: 2 ms for a second after the last event (a
/// control being moved), then 10 ms (a controller left alone: about 100
/// wakeups a second). The audio thread cannot wake it: it only stores atomics.
public final class SurfaceDesk: @unchecked Sendable {
    let controller: Controller
    let wires: SurfaceWires
    let logger: Logger
    /// What each surface's messages come from, for the controller: the
    /// loopback address (for access), its own transport (what it is sent
    /// comes back to the desk: `SurfaceDesk+Feedback.swift`).
    let peers: [OSCPeer]
    /// Who is let in (the rig's access door): a surface is let in as far
    /// as the loopback address is, asked again for every event.
    let admission: any Admission
    /// Per surface, whether it is bound to a role (`--surface-role`): then
    /// the role alone says what it may do, wherever loopback is let in.
    let bound: [Bool]
    /// Each surface's bindings and pick-up state; only the desk's thread uses them.
    let surfaces: Mutex<[MIDISurface]>
    /// Per surface, its bindings by the address the rig's feedback says
    /// their values at (`SurfaceDesk+Feedback.swift`); changed by learn.
    /// Never held while the controller is called.
    let feedback: Mutex<[[String: [MIDIBinding]]]>
    /// MIDI learn's requests (`SurfaceDesk+Learning.swift`); nil: none come.
    let learning: Learning?
    /// The Mackie Control surface (`SurfaceDesk+Mackie.swift`), if any, and
    /// which unit of it each of its wires is.
    let mackie: Mutex<MackieConsole?>
    let mackieUnits: [Int: Int]
    /// The wire of its first unit: its peer is the surface's, to the rig.
    let mackieFirst: Int?
    /// Whether it is subscribed to feedback and meters; whether the rig changed size since its last look.
    let mackieSubscribed = Atomic<Bool>(false)
    let mackieResized = Atomic<Bool>(false)
    /// Held while a packet's MIDI goes into an outgoing ring: one producer at a time.
    let sending = Mutex<Void>(())
    /// Surfaces whose hardware came (back), and when to bring each up to
    /// date (`refresh(_:)`); the desk's thread takes them as they fall due.
    let refreshes = Mutex<[Int: ContinuousClock.Instant]>([:])
    let stopping = Atomic<Bool>(false)
    let running = Atomic<Bool>(false)

    public init(controller: Controller, wires: SurfaceWires, surfaces: [MIDISurface], admission: any Admission,
                boundToRoles: Set<String> = [], learning: Learning? = nil, mackie: MackieConsole? = nil,
                logger: Logger) {
        self.controller = controller
        self.admission = admission
        bound = wires.names.map(boundToRoles.contains)
        self.wires = wires
        self.logger = logger
        self.surfaces = Mutex(surfaces)
        feedback = Mutex(surfaces.map { Self.byFeedbackAddress($0.map) })
        self.learning = learning
        self.mackie = Mutex(mackie)
        mackieFirst = mackie?.units.first
        mackieUnits = Dictionary(uniqueKeysWithValues: (mackie?.units ?? []).enumerated().map { ($1, $0) })
        let loopback = SocketAddress.resolve(host: "127.0.0.1", port: 0)
        guard let loopback else { preconditionFailure("127.0.0.1 is always an address") }
        peers = wires.names.map { OSCPeer(address: loopback, transport: .surface($0)) }
    }

    /// Starts the thread.
    public func start() {
        running.store(true, ordering: .releasing)
        let thread = Thread { [self] in
            run()
            running.store(false, ordering: .releasing)
        }
        thread.name = "surfaces"
        thread.start()
    }

    /// Ends the thread (within one look) and waits for it.
    public func stop() {
        stopping.store(true, ordering: .relaxed)
        while running.load(ordering: .acquiring) { Thread.sleep(forTimeInterval: 0.001) }
    }

    func run() {
        // Each surface follows the rig from the start: the full state, then every change.
        for s in 0..<wires.count where mackieUnits[s] == nil { subscribe(s) }
        startMackie()
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: MIDIRing.longestEvent)
        defer { bytes.deallocate() }
        var dropped = [Int](repeating: 0, count: wires.count)
        var unsentDropped = [Int](repeating: 0, count: wires.count)
        var lastEvent = ContinuousClock.now
        while !stopping.load(ordering: .relaxed) {
            var any = false
            let due = dueRefreshes()
            for s in due where mackieUnits[s] == nil { subscribe(s) }
            if due.contains(where: { mackieUnits[$0] != nil }) { showMackie() }
            if mackieResized.exchange(false, ordering: .relaxed) { showMackie() }
            if mackieFirst != nil { push(mackie.withLock { $0?.dueTexts() ?? [] }) }
            forgetWaiting()
            for s in 0..<wires.count {
                while let count = wires.incoming[s].pop(into: bytes) {
                    any = true
                    guard let message = MIDIMessage(UnsafeBufferPointer(start: bytes, count: count)) else { continue }
                    if let unit = mackieUnits[s] {
                        takeMackie(message, unit: unit)
                    } else if !learn(message, surface: s) {
                        take(message, surface: s)
                    }
                }
                let lost = wires.incoming[s].dropped
                if lost != dropped[s] {
                    logger.warning("surface \(wires.names[s]): \(lost - dropped[s]) MIDI events dropped (more than the rig could take in time, or empty, or longer than \(MIDIRing.longestEvent) bytes)")
                    dropped[s] = lost
                }
                let unsent = wires.outgoing[s].dropped
                if unsent != unsentDropped[s] {
                    logger.warning("surface \(wires.names[s]): \(unsent - unsentDropped[s]) MIDI events not sent (its port or ring was full)")
                    unsentDropped[s] = unsent
                }
            }
            if any {
                lastEvent = .now
            } else {
                Thread.sleep(forTimeInterval: ContinuousClock.now - lastEvent < .seconds(1) ? 0.002 : 0.010)
            }
        }
    }

    /// One bound control's move, sent on to the controller.
    func take(_ message: MIDIMessage, surface s: Int) {
        let peer = peer(s)
        guard peer.access != .denied else {
            once(s, "the access rules let no client in from 127.0.0.1: its controls do nothing")
            return
        }
        let outgoing = surfaces.withLock { surfaces in
            surfaces[s].messages(for: message) { current($0, from: peer) }
        }
        for osc in outgoing { act(osc, surface: s, peer: peer) }
    }

    /// Hands `osc` to the controller from surface `s`; an `/error` it
    /// answers is logged once. Whether it was taken (no `/error`).
    @discardableResult
    func act(_ osc: OSCMessage, surface s: Int, peer: OSCPeer) -> Bool {
        var taken = true
        for reply in controller.handle(.message(osc), from: peer) {
            for error in reply.messages where error.address == "/error" {
                let text = error.arguments.map { "\($0)" }.joined(separator: " ")
                once(s, "\(osc.address): \(text.escapingControlCharacters().cut())")
                taken = false
            }
        }
        return taken
    }

    /// Surface `s`'s peer, let in as far as loopback is (or fully, if bound to a role).
    func peer(_ s: Int) -> OSCPeer {
        var peer = peers[s]
        peer.access = bound[s] ? .full : admission.access(for: [127, 0, 0, 1])
        return peer
    }

    /// Logs `text` for surface `s`, the first time only.
    func once(_ s: Int, _ text: String) {
        if surfaces.withLock({ $0[s].logged.insert(text).inserted }) { logger.warning("surface \(wires.names[s]): \(text)") }
    }

    /// The rig's value at a binding's target, in its form.
    func current(_ binding: MIDIBinding, from peer: OSCPeer) -> Float? {
        ask(binding.target, from: peer)?.arguments.first?.number
    }

    /// The rig's answer to a query of `address` (the message at that address), as `peer` would get it.
    func ask(_ address: String, from peer: OSCPeer) -> OSCMessage? {
        for reply in controller.handle(.message(OSCMessage(address)), from: peer) {
            if let message = reply.messages.first(where: { $0.address == address }) { return message }
        }
        return nil
    }
}
