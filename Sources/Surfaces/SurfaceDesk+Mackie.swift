import Catalogue
import OSC
import RigControl

/// The Mackie Control surface on the desk (docs/surfaces.md, "Mackie
/// Control"): its controls handed to the rig as the first unit's peer, and
/// the rig's values and meters shown on it. It is subscribed to feedback
/// and to meters once; a change of view asks the rig for what the strips
/// now show.
extension SurfaceDesk {
    /// Meters on the surface, per second: the units' LEDs fall back on their own between updates.
    static let mackieMeterRate: Float = 10

    /// The first look: the strips laid out, then the full state and meters.
    func startMackie() {
        guard let first = mackieFirst else { return }
        askRole(first)
        let space = controller.addressSpace
        mackieSize.withLock { $0 = [space.inputs, space.outputs, space.dcas] }
        push(mackie.withLock { console in
            console?.look(space)
            return console?.frame() ?? []
        })
        subscribeMackie(first)
    }

    /// Subscribes the surface to feedback and meters, once it is let in
    /// (a rule reloaded later may let in a surface denied at the start).
    func subscribeMackie(_ first: Int) {
        let peer = peer(first)
        guard peer.access != .denied, !mackieSubscribed.exchange(true, ordering: .relaxed) else { return }
        // Levels as the surface shows them only: the fader's position and dB (not the linear gain).
        _ = controller.handle(.message(OSCMessage(Command.Name.subscribeForms.rawValue, [.string("fader,db")])), from: peer)
        _ = controller.handle(.message(OSCMessage(Command.Name.metersSubscribe.rawValue,
                                                  [.float(Self.mackieMeterRate)])), from: peer)
    }

    /// Everything the view shows, sent again: its layout, then each value,
    /// asked of the rig. (A touch outlives a unit that comes back: its
    /// release may yet come; one that never does lapses, `MackieConsole.touchHold`.)
    func showMackie() {
        guard let first = mackieFirst else { return }
        askRole(first)
        subscribeMackie(first)
        let space = controller.addressSpace
        mackieSize.withLock { $0 = [space.inputs, space.outputs, space.dcas] }
        let (frame, addresses) = mackie.withLock { console in
            console?.look(space)
            return (console?.frame() ?? [], console?.addresses ?? [])
        }
        push(frame)
        for address in addresses { echoMackie(address, peer: peer(first)) }
    }

    /// Shows the rig's value at `address` (it does not feed a client's own change back).
    func echoMackie(_ address: String, peer: OSCPeer) {
        guard peer.access != .denied else { return }
        for reply in controller.handle(.message(OSCMessage(address)), from: peer) {
            for message in reply.messages where message.address == address {
                push(mackie.withLock { $0?.show(message) ?? [] })
            }
        }
    }

    /// A rig that changed size (`/rig/inputs`, `/rig/outputs`): the strips
    /// follow, within a tenth of a second.
    func followRigSize() {
        guard mackieFirst != nil else { return }
        let now = ContinuousClock.now
        guard mackieSizeLook.withLock({ last in
            defer { if now - last >= .milliseconds(100) { last = now } }
            return now - last >= .milliseconds(100)
        }) else { return }
        let space = controller.addressSpace
        let size = [space.inputs, space.outputs, space.dcas]
        let changed = mackieSize.withLock { seen in
            defer { seen = size }
            return !seen.isEmpty && seen != size
        }
        if changed { showMackie() }
    }

    /// The rig's feedback or meters for the surface.
    func showMackie(_ packet: OSCPacket) {
        push(mackie.withLock { console in
            packet.messages.flatMap { message -> [MackieConsole.Event] in
                (message.address.hasPrefix("/meters/") ? console?.meters(message) : console?.show(message)) ?? []
            }
        })
    }

    /// One control of unit `unit` moved.
    func takeMackie(_ message: MIDIMessage, unit: Int) {
        guard let first = mackieFirst else { return }
        let peer = peer(first)
        guard peer.access != .denied else {
            once(first, "the access rules let no client in from 127.0.0.1: its controls do nothing")
            return
        }
        subscribeMackie(first)
        let space = controller.addressSpace
        switch mackie.withLock({ $0?.take(message, unit: unit, space: space) }) {
        case .send(let osc, let echo):
            if act(osc, surface: first, peer: peer), let echo { echoMackie(echo, peer: peer) }
        case .toggle(let address):
            for reply in controller.handle(.message(OSCMessage(address)), from: peer) {
                for message in reply.messages where message.address == address {
                    guard let now = MackieConsole.number(message.arguments.first ?? .int32(0)),
                          act(OSCMessage(address, [.int32(now >= 0.5 ? 0 : 1)]), surface: first, peer: peer)
                    else { continue }
                    echoMackie(address, peer: peer)
                }
            }
        case .view:
            showMackie()
        case nil:
            break
        }
    }

    /// Asks the rig the role the surface acts in (`/role`): one that may
    /// change only some outputs' mixes keeps it on their sends on fader.
    func askRole(_ first: Int) {
        var outputs: [Int]?
        for reply in controller.handle(.message(OSCMessage(Command.Name.role.rawValue)), from: peer(first)) {
            for message in reply.messages where message.address == Command.Name.role.rawValue {
                guard message.arguments.count >= 2, case .string("outputs") = message.arguments[1] else { continue }
                outputs = message.arguments.dropFirst(2).compactMap { argument in
                    if case .int32(let m) = argument { Int(m) } else { nil }
                }
            }
        }
        mackie.withLock { $0?.restrict(to: outputs) }
    }

    /// Events for the units, each into its wire's outgoing ring.
    func push(_ events: [MackieConsole.Event]) {
        for event in events { push(event.bytes, to: event.wire) }
    }
}
