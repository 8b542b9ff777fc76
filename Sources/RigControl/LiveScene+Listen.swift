import Catalogue
import MixCore
import SceneModel

/// The engineer's listen (docs/talkback.md): its selection's rules and its
/// ramps following every change that moves them.
extension LiveScene {
    /// Why the rig refuses a value its parameter's own check takes: a
    /// listen's default pair must be 0 or the first output of a stereo pair
    /// of this rig's. Nil for everything else.
    func refusal(_ number: Int, _ value: Parameter.Value) -> String? {
        let parameter = catalogue.parameters[number]
        guard parameter.strip == .listen, parameter.name == "default" else { return nil }
        let pair = Int(value.number), sides = mixer.layout.sides
        guard pair != 0 else { return nil }
        return pair >= 1 && pair <= sides.count && sides[pair - 1] == .left ? nil
            : "output \(pair) is not the first output of a stereo pair"
    }

    /// After a transaction that moved what the listen hears: in exclusive
    /// mode, a source or output put in the listen takes it alone (the last
    /// one set, in a message that set several; its stereo partner comes
    /// with it, `Catalogue.listenRamps`); then every share and the talks
    /// move over the smoothing and its level over its fade, if it was given
    /// one; subscribers are told what is listened to. Those that differ
    /// from what `before` gave move; with no `before`, every one (after a
    /// change of size, whose kernel kept the shares of the channels that
    /// stay, whatever the scene now says).
    func updateListen(from before: Scene?, edits: [Controller.Edit] = [], into changes: inout [Change]) {
        var chosen: Parameter.Place?, levelFade: Float?
        for case .set(let number, let place, let value, let fade) in edits {
            let parameter = catalogue.parameters[number]
            if value.isOn, parameter.name == "listen", [Parameter.Strip.source, .output].contains(parameter.strip) { chosen = place }
            if parameter.strip == .listen, parameter.isLevel { levelFade = fade }
        }
        if let chosen, state.scene.listen.mode == "exclusive" { clearListen(keeping: chosen, into: &changes) }
        changes += catalogue.listenChanges(from: before, to: state.scene, in: ramps, sides: mixer.layout.sides,
                                           seconds: smoothing, levelSeconds: levelFade ?? smoothing)
        if before.map({ $0.sources.map(\.listen) != state.scene.sources.map(\.listen)
                        || $0.outputs.map(\.listen) != state.scene.outputs.map(\.listen) }) ?? true {
            for name in ["source", "output"] {
                if let number = catalogue.number(.listen, name) { touched.append(.parameter(number, .listen, .plain)) }
            }
        }
    }

    /// Takes every source and output out of the listen, but `kept`.
    func clearListen(keeping kept: Parameter.Place?, into changes: inout [Change]) {
        for strip in [Parameter.Strip.source, .output] {
            guard let number = catalogue.number(strip, "listen") else { continue }
            for place in catalogue.places(strip, of: state.scene) where place != kept {
                set(number, at: place, to: .toggle(false), seconds: smoothing, into: &changes)
            }
        }
    }
}
