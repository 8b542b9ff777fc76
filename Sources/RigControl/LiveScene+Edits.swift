import Catalogue
import MixCore
import SceneModel

/// Setting parameters: each setter updates the scene and emits the change
/// for the audio thread that the catalogue gives, and does nothing when the
/// parameter already has the value. All under the lock.
extension LiveScene {
    /// Sets parameter `number` at `place`, ramping over `seconds` (levels by
    /// the fader law, the rest linearly; gates, polarity and solo gates
    /// through their ramps). A solo changes no sound here: the caller moves
    /// the solo gates (`updateSoloGates`).
    func set(_ number: Int, at place: Parameter.Place, to value: Parameter.Value, seconds: Float,
             into changes: inout [Change]) {
        let parameter = catalogue.parameters[number]
        let old = parameter.get(state.scene, place)
        guard old != value else { return }
        let members = groupMembers(of: place)
        let groupsBefore = members.map(groupState)
        parameter.set(&state.scene, place, value)
        switch parameter.storage {
        case .scene: changed = true
        case .rig: rewired = true
        case .live, .transient: break // reported by the rig, or a talk: neither the scene's change nor the state file's
        }
        // Fed back now, or as it moves when it fades.
        if !follow(number, at: place, from: old, to: value, seconds: seconds) {
            touched.append(.parameter(number, place, .plain))
        }
        if let change = catalogue.change(number, at: place, to: value, in: ramps, seconds: seconds) {
            changes.append(change)
        }
        regroup(members, from: groupsBefore, seconds: seconds, into: &changes)
    }

    /// A crosspoint's level.
    func setCrosspoint(_ input: Int, _ output: Int, _ gain: Float, seconds: Float, into changes: inout [Change]) {
        set(crosspointLevel, at: .crosspoint(input: input, output: output), to: .number(gain), seconds: seconds,
            into: &changes)
    }

    /// The catalogue's number of the crosspoint level.
    var crosspointLevel: Int { catalogue.number(.crosspoint, "") ?? 0 }

    /// Every crosspoint to 0 (`/matrix/clear`).
    func clearMatrix(into changes: inout [Change]) {
        for n in stride(from: 1, through: state.scene.inputCount, by: 1) {
            for m in stride(from: 1, through: state.scene.outputCount, by: 1) {
                setCrosspoint(n, m, 0, seconds: smoothing, into: &changes)
            }
        }
    }

    /// The channel map (`/matrix/map`): output k takes input `inputs[k]` at
    /// unity and nothing else (0: nothing at all).
    func map(_ inputs: [Int], into changes: inout [Change]) {
        for (index, input) in inputs.enumerated() {
            for n in stride(from: 1, through: state.scene.inputCount, by: 1) {
                setCrosspoint(n, index + 1, n == input ? 1 : 0, seconds: smoothing, into: &changes)
            }
        }
    }

    /// Safes change no sound.
    func setSafe(_ safe: Target.Safe, _ on: Bool) {
        state.safes.set(safe.kind, safe.channel, on)
        touched.append(.safe(safe))
    }

    /// Whether each source is heard as far as solo goes.
    func soloGates() -> [Bool] {
        stride(from: 1, through: state.scene.inputCount, by: 1).map { !state.scene.isSilencedBySolo($0) }
    }

    /// After solos changed: ramps every solo gate that opened or closed.
    func updateSoloGates(from before: [Bool], seconds: Float, into changes: inout [Change]) {
        for (index, (was, now)) in zip(before, soloGates()).enumerated() where was != now {
            changes.append(catalogue.soloGate(index + 1, open: now, in: ramps, seconds: seconds))
        }
    }

    /// Moves every parameter of the scene that differs to its value in
    /// `target`, all in one batch (so in the same audio period) and all over
    /// `seconds`. The rig's wiring and what the rig reports stay as they are.
    func transition(to target: Scene, seconds: Float, into changes: inout [Change]) {
        let gates = soloGates(), before = state.scene
        for (number, parameter) in catalogue.parameters.enumerated() where parameter.storage == .scene {
            if case .crosspoint = parameter.kernel {
                transitionCrosspoints(to: target.crosspoints, seconds: seconds, into: &changes)
                continue
            }
            for place in catalogue.places(parameter.strip, of: state.scene) {
                set(number, at: place, to: parameter.get(target, place), seconds: seconds, into: &changes)
            }
        }
        updateSoloGates(from: gates, seconds: seconds, into: &changes)
        // A source's polarity and link move its share of the listen.
        updateListen(from: before, into: &changes)
    }

    /// What `set` does for every crosspoint that differs, in one pass over
    /// the two matrices, with the live matrix taken out of the state once: a
    /// 64x64 recall visits 4,096 crosspoints.
    private func transitionCrosspoints(to target: CrosspointMatrix, seconds: Float, into changes: inout [Change]) {
        var live = state.scene.crosspoints
        guard live.inputs == target.inputs, live.outputs == target.outputs else {
            // Never for a fitted preset or the undo scene; crosspoint by crosspoint then.
            for n in stride(from: 1, through: min(live.inputs, target.inputs), by: 1) {
                for m in stride(from: 1, through: min(live.outputs, target.outputs), by: 1) {
                    setCrosspoint(n, m, target[n, m], seconds: seconds, into: &changes)
                }
            }
            return
        }
        let (before, wanted) = (live.gains, target.gains)
        let level = crosspointLevel
        var moved: [Target] = []
        var anyMoved = false
        var index = 0
        for n in stride(from: 1, through: live.inputs, by: 1) {
            for m in stride(from: 1, through: live.outputs, by: 1) {
                defer { index += 1 }
                let gain = wanted[index]
                guard gain != before[index] else { continue }
                live[n, m] = gain
                anyMoved = true
                if !follow(level, at: .crosspoint(input: n, output: m), from: .number(before[index]), to: .number(gain),
                           seconds: seconds) {
                    moved.append(.parameter(level, .crosspoint(input: n, output: m), .plain))
                }
                changes.append(Change(ramp: Int32(ramps.crosspoint(n, m)), position: FaderLaw.position(gain: gain),
                                      value: gain, seconds: seconds))
            }
        }
        guard anyMoved else { return }
        state.scene.crosspoints = live
        changed = true
        touched += moved
    }
}
