import Catalogue
import Delivery
import MixCore
import SceneModel
import OSC
import Presets

/// The scene's values as addresses carry them: for query replies, feedback,
/// a subscriber's full picture and OSCQuery's answers. Every function reads
/// the rig state it is given (a copy taken under the lock, or `state` with
/// the lock held).
extension LiveScene {
    /// A parameter's or safe's value as `target` shows it, in `state`; nil
    /// for commands without a value.
    func value(_ target: Target, in state: RigState) -> [OSCArgument]? {
        switch target {
        case .parameter(let number, let place, let form):
            Self.arguments(of: catalogue.parameters[number].get(state.scene, place), in: form)
        case .command(.matrixMap):
            Self.channelMap(state.scene).map { .int32(Int32($0)) }
        case .command(.rigInputs): [.int32(Int32(state.scene.inputCount))]
        case .command(.rigOutputs): [.int32(Int32(state.scene.outputCount))]
        case .safe(let safe): [.int32(state.safes.contains(safe.kind, safe.channel) ? 1 : 0)]
        default: nil
        }
    }

    /// A parameter's value as an address of `form` carries it (`Parameter+Forms`):
    /// only a level has forms other than its plain one.
    static func arguments(of value: Parameter.Value, in form: Target.Form) -> [OSCArgument] {
        switch value {
        case .number(let number): [.float(Parameter.Kind.level.number(number, in: form))]
        case .toggle(let on): [.int32(on ? 1 : 0)]
        case .text(let text): [.string(text)]
        }
    }

    /// Feedback for changed parameters, read from `state`: every address
    /// form of each (a level as volume, dB and fader; only `levelForms` of
    /// them, if given), and the channel map when routing changed.
    func feedbackMessages(for targets: [Target], in state: RigState,
                          levelForms: Set<Parameter.Form>? = nil) -> Feedback {
        var feedback = Feedback()
        var routing = false
        let level = crosspointLevel
        for target in targets {
            if case .parameter(level, _, _) = target { routing = true }
            appendForms(of: target, in: state, levelForms: levelForms, to: &feedback)
        }
        if routing, let map = value(.command(.matrixMap), in: state) {
            feedback.append(OSCMessage(Command.Name.matrixMap.address, map), form: .plain)
        }
        return feedback
    }

    /// One parameter in every form (or `levelForms` of them), as `state` holds it.
    func appendForms(of target: Target, in state: RigState, levelForms: Set<Parameter.Form>? = nil,
                     to feedback: inout Feedback) {
        let space = addressSpace
        for form in space.allForms(target) {
            var written = Parameter.Form.plain
            if case .parameter(_, _, let level) = form { written = level }
            if let levelForms, written != .plain, !levelForms.contains(written) { continue }
            if let value = value(form, in: state) { feedback.append(OSCMessage(space.address(form), value), form: written) }
        }
    }

    /// Every parameter of a scene of this size (a level in its first form),
    /// strip by strip and place by place, with the safes: a subscriber's
    /// first full picture, and OSCQuery's nodes.
    func allParameters(inputs: Int, outputs: Int) -> [Target] {
        var targets: [Target] = []
        let space = addressSpace
        for kind in catalogue.kinds {
            let numbers = catalogue.numbers(of: kind.strip)
            for place in catalogue.places(kind.strip, counts: space.counts.merging([.source: inputs, .output: outputs]) { $1 }) {
                for number in numbers { targets.append(.parameter(number, place, space.forms(number)[0])) }
                for safe in catalogue.safes where safe.strip == kind.strip {
                    targets.append(.safe(Target.Safe(safe.kind, place.channel)))
                }
            }
        }
        return targets
    }

    /// For each output, the input it takes at unity when that is its only
    /// crosspoint in use; 0 otherwise.
    static func channelMap(_ scene: Scene) -> [Int] {
        stride(from: 1, through: scene.outputCount, by: 1).map { m in
            let used = stride(from: 1, through: scene.inputCount, by: 1).filter { scene.crosspoints[$0, m] != 0 }
            return used.count == 1 && scene.crosspoints[used[0], m] == 1 ? used[0] : 0
        }
    }
}
