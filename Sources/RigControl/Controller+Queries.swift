import Catalogue
import MixCore
import OSC
import Presets

/// Answers to messages without arguments.
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
            clearMatrix(into: &changes)
            submit(changes)
            logger.debug("\(peer) /matrix/clear")
            return []
        case .command(.status):
            // `access`: what the asking session may do (full, read-only, or
            // outputs: `/role` says which), so that a page or a layout can
            // show its controls as read-only.
            let access = switch role(of: peer).control {
            case .all: "full"
            case .none: "read-only"
            case .outputs: "outputs"
            }
            let report = statusReport() + [("late_bundles", OSCArgument.int32(Int32(clamping: lateBundles))),
                                           ("access", .string(access))]
            return [.bundle(report.map { OSCMessage("/status/\($0.0)", [$0.1]) })]
        case .command(.ping):
            return [.message(OSCMessage("/pong"))]
        default:
            return []
        }
    }

    /// What a parameter is now, as its address carries it; nil for actions.
    func currentValue(_ target: Target) -> [OSCArgument]? {
        switch target {
        case .parameter, .command(.matrixMap), .safe:
            return value(target, in: state)
        case .current(let number, let place, let form):
            return movingValue(.parameter(number, place, form))
        case .delta, .touch, .command, .recallPreset:
            return nil
        }
    }

    /// A parameter's value as an address of `form` carries it (`Parameter+Forms`).
    func arguments(of value: Parameter.Value, in form: Target.Form) -> [OSCArgument] {
        switch value {
        case .number(let number): [.float(Parameter.Kind.level.number(number, in: form))]
        case .toggle(let on): [.int32(on ? 1 : 0)]
        case .text(let text): [.string(text)]
        }
    }

    /// Feedback for changed parameters: every address form of each (a level
    /// as volume, dB and fader), and the channel map when routing changed.
    func feedbackMessages(for targets: [Target]) -> [OSCMessage] {
        feedbackMessages(for: targets, in: state)
    }

    /// The same, read from `state`: a copy of the rig state, which needs no lock.
    func feedbackMessages(for targets: [Target], in state: RigState) -> [OSCMessage] {
        var messages: [OSCMessage] = []
        var routing = false
        let level = crosspointLevel
        for target in targets {
            if case .parameter(level, _, _) = target { routing = true }
            for form in addressSpace.allForms(target) {
                if let value = value(form, in: state) { messages.append(OSCMessage(addressSpace.address(form), value)) }
            }
        }
        if routing, let map = value(.command(.matrixMap), in: state) { messages.append(OSCMessage("/matrix/map", map)) }
        return messages
    }

    /// Every parameter of the rig (a level in its first form), strip by
    /// strip and place by place, with the safes: a subscriber's first full picture.
    func allParameters() -> [Target] {
        let (inputs, outputs) = (state.scene.inputCount, state.scene.outputCount)
        var targets: [Target] = []
        for strip in [Parameter.Strip.source, .crosspoint, .output, .master] {
            let numbers = catalogue.numbers(of: strip)
            for place in catalogue.places(strip, inputs: inputs, outputs: outputs) {
                for number in numbers { targets.append(.parameter(number, place, addressSpace.forms(number)[0])) }
                switch place {
                case .source(let n): targets.append(.safe(.source(n)))
                case .output(let m): targets.append(contentsOf: [.safe(.output(m)), .safe(.mix(m))])
                case .master: targets.append(.safe(.master))
                case .crosspoint: break
                }
            }
        }
        return targets
    }

    /// For each output, the input it takes at unity when that is its only
    /// crosspoint in use; 0 otherwise.
    public func channelMap() -> [Int] { channelMap(scene) }

    func channelMap(_ scene: Scene) -> [Int] {
        stride(from: 1, through: scene.outputCount, by: 1).map { m in
            let used = stride(from: 1, through: scene.inputCount, by: 1).filter { scene.crosspoints[$0, m] != 0 }
            return used.count == 1 && scene.crosspoints[used[0], m] == 1 ? used[0] : 0
        }
    }
}
