import CJack
import MIDI
import Synchronization

/// The surfaces' MIDI ports (docs/surfaces.md, "MIDI controllers"): for
/// each surface, `NAME_in` (from the controller) and `NAME_out` (to it),
/// made with the client and kept for its life, published to the process
/// callback (`ProcessContext+MIDI.swift`).
extension JackClient {
    /// Registers every surface's two ports. Control side; nil, or what failed.
    func registerMIDIPorts() -> String? {
        guard let surfaces = context.surfaces else { return nil }
        let type = "8 bit raw midi" // JACK_DEFAULT_MIDI_TYPE
        while midiPorts.count < 2 * surfaces.count {
            let p = midiPorts.count
            let input = p % 2 == 0
            let name = surfaces.names[p / 2] + (input ? "_in" : "_out")
            let flags = input ? JackPortIsInput : JackPortIsOutput
            guard let port = jack_port_register(handle, name, type, UInt(flags.rawValue), 0) else {
                return "registering port \(name)"
            }
            context.midiPorts[p].store(UInt(bitPattern: port), ordering: .releasing)
            midiPorts.append(port)
        }
        return nil
    }

    /// For each of the surfaces' ports, in order (`NAME_in`, `NAME_out`, …), the ports connected to it.
    func midiConnections() -> [Set<String>] { midiPorts.map(connectedNames) }

    /// Every other client's MIDI port with `flags`.
    func midiPorts(flags: JackPortFlags) -> [String] { ports(flags: flags, type: "8 bit raw midi") }

    /// The surfaces' ports' full names, in order (`NAME_in`, `NAME_out`, …).
    var fullMIDINames: [String] {
        guard let surfaces = context.surfaces else { return [] }
        return surfaces.names.prefix(midiPorts.count / 2).flatMap { ["\(name):\($0)_in", "\(name):\($0)_out"] }
    }
}
