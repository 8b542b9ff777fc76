import Catalogue
import MixCore
import OSC
import Presets

/// Answers to messages without arguments, under the scene's lock.
extension Controller {
    /// The target's current value at its own address, or the action for
    /// targets that are actions (`/matrix/clear`, `/status`, `/ping`).
    func answer(_ target: Target, from peer: OSCPeer) -> [OSCPacket] {
        if let value = currentValue(target) {
            return [.message(OSCMessage(addressSpace.address(target), value))]
        }
        switch target {
        case .command(.matrixClear):
            var changes: [Change] = []
            live.clearMatrix(into: &changes)
            live.submit(changes)
            live.log.debug("\(peer) /matrix/clear")
            return []
        case .command(.listenClear):
            let before = live.state.scene
            var changes: [Change] = []
            live.clearListen(keeping: nil, into: &changes)
            live.updateListen(from: before, edits: [], into: &changes)
            live.submit(changes)
            return []
        case .command(.status):
            // `access`: what the asking session may do (full, read-only, or
            // outputs: `/role` says which), so that a page or a layout can
            // show its controls as read-only.
            let access = switch sessions.role(of: peer).control {
            case .all: "full"
            case .none: "read-only"
            case .outputs: "outputs"
            }
            var report = statusReport(peer)
            report[.statusLateBundles] = .int32(Int32(clamping: lateBundles.load(ordering: .relaxed)))
            report[.statusAccess] = .string(access)
            return [.bundle(Catalogue.statusFields.compactMap { field in
                switch field.name {
                // The state file's, where the rig keeps one.
                case .statusStateSaved: keeper == nil ? nil : stateSaved()
                case .statusStateNote: keeper == nil ? nil : stateNote()
                default: report[field.name].map { OSCMessage(field.address, [$0]) }
                }
            })]
        case .command(.ping):
            return [.message(OSCMessage(Reply.Name.pong.address))]
        default:
            return []
        }
    }

    /// `/status/state_note`: the state file's note, or three empty strings.
    func stateNote() -> OSCMessage {
        let note = keeper?.note
        return OSCMessage(Reply.Name.statusStateNote.address,
                          [note?.file ?? "", note?.reason ?? "", note?.timeText ?? ""].map { .string($0) })
    }

    /// `/status/state_saved`: 1 and "" while saves succeed, else 0 and why.
    func stateSaved() -> OSCMessage {
        let failure = keeper?.saveFailure
        return OSCMessage(Reply.Name.statusStateSaved.address, [.int32(failure == nil ? 1 : 0), .string(failure ?? "")])
    }

    /// Tells every subscriber that saves of the state file started failing
    /// or succeed again (the keeper says so, on its thread).
    public func publishStateSaved() {
        guard let feedback = subscriptions.feedback, feedback.count > 0 else { return }
        feedback.publish([stateSaved()])
    }

    /// `/status/state_note/ack`: the note is cleared, and every subscriber told.
    func acknowledgeStateNote() -> [OSCPacket] {
        if keeper?.acknowledge() == true, let feedback = subscriptions.feedback, feedback.count > 0 {
            feedback.publish([stateNote()])
        }
        return []
    }

    /// What a parameter is now, as its address carries it; nil for actions.
    func currentValue(_ target: Target) -> [OSCArgument]? {
        switch target {
        case .parameter, .command(.matrixMap), .command(.rigInputs), .command(.rigOutputs), .safe:
            return live.value(target, in: live.state)
        case .current(let number, let place, let form):
            return live.movingValue(.parameter(number, place, form))
        case .delta, .touch, .command, .recallPreset:
            return nil
        }
    }

    /// For each output, the input it takes at unity when that is its only
    /// crosspoint in use; 0 otherwise.
    public func channelMap() -> [Int] { LiveScene.channelMap(scene) }

    /// Sends every subscriber the targets of the fades that have ended, and
    /// the values of the next fading parameters in turn (LiveScene+Fades.swift).
    /// Called by the feedback thread every 33 ms.
    public func publishFades(at now: ContinuousClock.Instant = .now) {
        live.publishFades(at: now, to: subscriptions)
    }
}
