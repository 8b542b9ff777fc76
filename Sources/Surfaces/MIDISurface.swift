import OSC

/// One plain MIDI controller on the control side (`serve --midi NAME
/// --midi-map FILE`): its bindings, and where each continuous control
/// stands against the rig for pick-up. Only `SurfaceDesk`'s thread touches it.
public struct MIDISurface: Sendable {
    public let name: String
    /// Its bindings: the map file's, then as learn changes them.
    public private(set) var map: MIDIMap
    /// The map file (`--midi-map`), rewritten by learn; nil: kept in memory only.
    public let file: String?
    /// Per control in pick-up mode: the share of its travel it last sent
    /// (nil: not engaged) and where it was last (nil: never moved).
    var sent: [MIDIControl: Float] = [:]
    var lastPosition: [MIDIControl: Float] = [:]
    /// Per switch control: whether it is held now (a CC button that sends
    /// 127 again, or a knob bound as a switch, presses once until it falls
    /// below 64).
    var held: [MIDIControl: Bool] = [:]
    /// What has been logged of it: each text once.
    var logged: Set<String> = []

    public init(name: String, map: MIDIMap, file: String? = nil) {
        self.name = name
        self.map = map
        self.file = file
    }

    /// Takes `map` in place of its own; the controls in `changed` start
    /// afresh (not engaged, not held).
    public mutating func use(_ map: MIDIMap, changed: [MIDIControl]) {
        self.map = map
        for control in changed {
            sent[control] = nil
            lastPosition[control] = nil
            held[control] = nil
        }
    }

    /// What `message` asks of the rig: the messages to send (none if it is
    /// not bound, or a pick-up control has not yet met the rig's value).
    /// `current` asks the rig for a binding's value at its target, in the
    /// binding's form.
    public mutating func messages(for message: MIDIMessage, current: (MIDIBinding) -> Float?) -> [OSCMessage] {
        guard let binding = map.binding(message.control) else { return [] }
        let control = binding.control
        switch (binding.form, message) {
        case (.toggle, _), (.momentary, _):
            let down = MIDIBinding.isHeld(message)
            let wasDown = held[control] ?? false
            held[control] = down
            // A note on is a press each time; a CC only on the way up (or down).
            let isNote = control.kind == .note
            if binding.form == .momentary {
                guard isNote || down != wasDown else { return [] }
                return [OSCMessage(binding.target, [.int32(down ? 1 : 0)])]
            }
            guard down, isNote || !wasDown, let now = current(binding) else { return [] }
            return [OSCMessage(binding.target, [.int32(now >= 0.5 ? 0 : 1)])]
        case (.relative, .controlChange(_, _, let raw)):
            let steps = MIDIBinding.steps(raw)
            guard steps != 0 else { return [] }
            let size = (binding.range.upperBound - binding.range.lowerBound) / 128
            return [OSCMessage(binding.target, [.float(Float(steps) * size)])]
        case (_, .controlChange(_, _, let raw)), (_, .pitchBend(_, let raw)):
            let share = binding.travel(raw)
            defer { lastPosition[control] = share }
            if binding.mode == .pickup {
                guard let now = current(binding).map(binding.share) else { return [] }
                let step = 1 / Float(control.top)
                let engaged = sent[control].map { abs($0 - now) <= step / 2 } ?? false
                let met = abs(share - now) <= step
                let crossed = lastPosition[control].map { ($0 - now) * (share - now) <= 0 } ?? false
                guard engaged || met || crossed else {
                    sent[control] = nil
                    return []
                }
                sent[control] = share
            }
            return [OSCMessage(binding.target, [.float(binding.value(at: share))])]
        default:
            return []
        }
    }
}
