import Catalogue
import MixCore
import SceneModel

/// Talkbacks (docs/talkback.md): a talk that latches, and the outputs'
/// talk sends and dims following every talkback's settings.
extension LiveScene {
    /// The value a toggle set to `value` takes at `place`: as sent, unless
    /// the parameter latches (`Parameter.latch`) and its strip's latch is
    /// on, when a 1 flips it (a tap talks until the next tap) and a 0 (the
    /// button let go) leaves it as it is.
    func latched(_ number: Int, at place: Parameter.Place, _ value: Parameter.Value) -> Parameter.Value {
        let parameter = catalogue.parameters[number]
        guard let latch = parameter.latch, let switched = catalogue.number(parameter.strip, latch),
              catalogue.parameters[switched].get(state.scene, place).isOn else { return value }
        let now = parameter.get(state.scene, place).isOn
        return .toggle(value.isOn ? !now : now)
    }

    /// After talkbacks' settings changed from `before`: moves every talk
    /// send and dim that differs, over the smoothing time; a talkback's
    /// sends over its level's fade in `fades`, if it was given one.
    func updateTalk(from before: Scene, fades: [Int: Float], into changes: inout [Change]) {
        changes += catalogue.talkChanges(from: before, to: state.scene, in: ramps, seconds: smoothing, fades: fades)
    }
}
