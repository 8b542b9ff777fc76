import Catalogue
import FoundationEssentials
import OSC
import Presets
import RigControl
import SystemSupport

/// MIDI learn on the desk's thread (docs/surfaces.md, "Learn"): a control
/// moved while `/midi/learn` waits is bound, and `/midi/forget` removes
/// bindings; each controller's map file is rewritten atomically before the
/// change is used, so what the controller does is always what its file says.
extension SurfaceDesk {
    /// Whether `message` was learn's: a control moving (a note on, a CC,
    /// pitch bend) on a controller that learns, while a learn waits, is
    /// bound and does not also act on the rig. One that cannot be the
    /// parameter acts as usual, and its learner is told once why.
    func learn(_ message: MIDIMessage, surface s: Int) -> Bool {
        guard let learning, let armed = learning.armed() else { return false }
        if case .note(_, _, 0) = message { return false }
        if bound[s] || peer(s).access != .full {
            // Its map is the engineer's, not the role's; and a controller
            // let in read-only could not use what it learnt.
            let reason = "\(wires.names[s]) does not learn: it is bound to a role, or let in only as far as 127.0.0.1 is"
            if learning.firstRefusal(reason, of: armed) { refuse(.midiLearn, reason, to: armed.peer) }
            return false
        }
        switch MIDIMap.learnt(message, address: armed.address, inDecibels: armed.inDecibels,
                                    space: controller.addressSpace) {
        case .failure(let error):
            if learning.firstRefusal(error.problem, of: armed) {
                refuse(.midiLearn, error.problem, to: armed.peer)
            }
            return false
        case .success(let binding):
            learning.end(armed)
            let surface = surfaces.withLock { $0[s] }
            guard use(surface.map.replacing(binding), on: s, changed: [binding.control], for: .midiLearn,
                      peer: armed.peer) else { return true }
            logger.notice("surface \(surface.name): learnt \(binding.control) for \(binding.address) (\(binding.form.rawValue), \(binding.mode.rawValue))")
            controller.send(.message(OSCMessage(Reply.Name.midiLearnt.rawValue, [
                .string(binding.address), .string(surface.name), .string(binding.control.description),
            ])), to: armed.peer)
            // The control shows the rig's value at once (a motor fader moves to it).
            if let value = current(binding, from: peer(s)) { push(binding.message(showing: value), to: s) }
        }
        return true
    }

    /// Carries out the `/midi/forget`s waiting.
    func forgetWaiting() {
        guard let learning else { return }
        for forget in learning.takeForgets() {
            var removed = 0
            for s in 0..<wires.count {
                let surface = surfaces.withLock { $0[s] }
                let map = surface.map.removing(forget.address)
                let gone = surface.map.bindings.filter { $0.address == forget.address }.map(\.control)
                guard !gone.isEmpty, use(map, on: s, changed: gone, for: .midiForget, peer: forget.peer) else { continue }
                logger.notice("surface \(surface.name): forgot \(gone.count) bindings of \(forget.address)")
                removed += gone.count
            }
            controller.send(.message(OSCMessage(Reply.Name.midiForgotten.rawValue, [
                .string(forget.address), .int32(Int32(removed)),
            ])), to: forget.peer)
        }
    }

    /// Writes `map` to surface `s`'s file, then uses it; false (the
    /// surface unchanged, `peer` told why) if the file cannot be written.
    private func use(_ map: MIDIMap, on s: Int, changed: [MIDIControl], for command: Command.Name,
                     peer: OSCPeer) -> Bool {
        let (name, file) = surfaces.withLock { ($0[s].name, $0[s].file) }
        guard map.bindings.count <= MIDIMap.maximumBindings else {
            refuse(command, "the map of \(name) has \(MIDIMap.maximumBindings) bindings, the most a map may have", to: peer)
            return false
        }
        if let file {
            do {
                try AtomicFile.write(map.encoded(), to: URL(fileURLWithPath: file))
            } catch {
                let reason = "\(error): the map of \(name) is unchanged"
                logger.error("surface \(name): \(reason.escapingControlCharacters().cut())")
                refuse(command, reason, to: peer)
                return false
            }
        }
        surfaces.withLock { $0[s].use(map, changed: changed) }
        feedback.withLock { $0[s] = Self.byFeedbackAddress(map) }
        return true
    }

    private func refuse(_ command: Command.Name, _ reason: String, to peer: OSCPeer) {
        controller.send(.message(OSCMessage(Reply.Name.error.rawValue, [.string(command.rawValue), .string(reason)])),
                        to: peer)
    }

    /// A map's bindings by the address the rig's feedback says their values at.
    static func byFeedbackAddress(_ map: MIDIMap) -> [String: [MIDIBinding]] {
        Dictionary(grouping: map.bindings, by: \.feedbackAddress)
    }
}
