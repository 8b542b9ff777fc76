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
        let (frame, addresses) = mackie.withLock { console in
            console?.look(space)
            return (console?.frame() ?? [], console?.addresses ?? [])
        }
        push(frame)
        for address in addresses { echoMackie(address, peer: peer(first)) }
    }

    /// Shows the rig's value at `address` (it does not feed a client's own change back).
    func echoMackie(_ address: String, peer: OSCPeer) {
        guard peer.access != .denied, let message = ask(address, from: peer) else { return }
        push(mackie.withLock { $0?.show(message) ?? [] })
    }

    /// The rig changed size (`/rig/inputs`, `/rig/outputs`; the controller's
    /// `resized`, under the scene's lock): the strips follow at the desk's
    /// next look. Only stores an atomic.
    public func resized() {
        mackieResized.store(true, ordering: .relaxed)
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
            guard let now = ask(address, from: peer)?.arguments.first?.number,
                  act(OSCMessage(address, [.int32(now >= 0.5 ? 0 : 1)]), surface: first, peer: peer) else { return }
            echoMackie(address, peer: peer)
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
        if let role = ask(Command.Name.role.rawValue, from: peer(first)), role.arguments.count >= 2,
           case .string("outputs") = role.arguments[1] {
            outputs = role.arguments.dropFirst(2).compactMap { argument in
                if case .int32(let m) = argument { Int(m) } else { nil }
            }
        }
        mackie.withLock { $0?.restrict(to: outputs) }
    }

    /// Events for the units, each into its wire's outgoing ring.
    func push(_ events: [MackieConsole.Event]) {
        for event in events { push(event.bytes, to: event.wire) }
    }
}
