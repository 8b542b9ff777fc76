import Catalogue
import OSC
import SystemSupport

/// `/midi/learn ADDRESS` and `/midi/forget ADDRESS` (docs/surfaces.md,
/// "Learn"): the address checked here, as the map file's is, and handed
/// to the surface desk through `learning`, whose thread owns the maps.
extension Controller {
    func midiLearn(_ name: Command.Name, _ targets: [Target], _ message: OSCMessage, from peer: OSCPeer) -> [OSCPacket] {
        guard targets.count == 1 else { return reject(message, "\(name.address) takes no patterns", from: peer) }
        guard let learning, !learning.controllers.isEmpty else {
            return reject(message, "no MIDI controller to learn on (serve --midi NAME --midi-map FILE)", from: peer)
        }
        let address: String
        do throws(ArgumentReader.Failure) {
            address = try ArgumentReader(arguments: message.arguments).strings(1...1, usage: "address")[0]
        } catch {
            return reject(message, error.reason, from: peer)
        }
        guard let (canonical, inDecibels) = learnable(address) else {
            let shown = address.escapingControlCharacters().cut(to: 64)
            return reject(message, "'\(shown)' is not the address of one parameter of this rig that a control may set",
                          from: peer)
        }
        if name == .midiForget {
            guard learning.forget(canonical, for: peer) else {
                return reject(message, "too many /midi/forget waiting: send it again in a moment", from: peer)
            }
            return []
        }
        learning.arm(canonical, inDecibels: inDecibels, for: peer)
        live.log.notice("MIDI learn of \(canonical) for \(peer): the next control moved is bound to it")
        return [.message(OSCMessage(Reply.Name.midiLearning.rawValue,
                                    [.string(canonical), .float(Float(Catalogue.learnWindow))]))]
    }

    /// The address a map names `address`'s parameter by (a level's linear
    /// one), and whether it was asked for in dB; nil if it is not one
    /// settable parameter (a pattern, a command, a text, a reported value).
    func learnable(_ address: String) -> (String, Bool)? {
        let space = live.addressSpace
        guard !address.contains(where: { "*?[]{},#".contains($0) }),
              case .success(let targets) = space.resolve(address), targets.count == 1,
              case .parameter(let number, let place, let written) = targets[0] else { return nil }
        let parameter = space.catalogue.parameters[number]
        guard parameter.isSettable else { return nil }
        switch parameter.kind {
        case .level: return (space.address(.parameter(number, place, .linear)), written == .decibels)
        case .number, .toggle: return (space.address(.parameter(number, place, .plain)), false)
        case .text: return nil
        }
    }

    /// Sends `packet` to `peer` outside a message's handling (what the
    /// surface desk learnt or forgot).
    public func send(_ packet: OSCPacket, to peer: OSCPeer) {
        subscriptions.reply(packet, peer)
    }
}
