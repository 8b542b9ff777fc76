import MixCore

/// Setting parameters: each setter updates the scene and emits the ramp for
/// the audio thread, and does nothing when the target is already set.
extension Controller {
    /// Sets a level, ramping by fader law over `seconds`.
    func setLevel(_ target: Target, _ gain: Float, seconds: Float, into changes: inout [Change]) {
        let ramp: Int
        switch target {
        case .source(let n, _):
            guard state.scene.sources[n - 1].volume != gain else { return }
            state.scene.sources[n - 1].volume = gain
            ramp = parameters.sourceVolume(n)
        case .output(let m, _):
            guard state.scene.outputs[m - 1].volume != gain else { return }
            state.scene.outputs[m - 1].volume = gain
            ramp = parameters.outputVolume(m)
        case .master:
            guard state.scene.master.volume != gain else { return }
            state.scene.master.volume = gain
            ramp = parameters.masterVolume
        case .crosspoint(let i, let o, _):
            guard state.scene.crosspoints[i, o] != gain else { return }
            state.scene.crosspoints[i, o] = gain
            ramp = parameters.crosspoint(i, o)
        default:
            return
        }
        sceneChanged = true
        touched.append(target)
        changes.append(Change(ramp: Int32(ramp), position: FaderLaw.position(gain: gain), value: gain, seconds: seconds))
    }

    /// Sets a pan; pans ramp linearly.
    func setPan(_ n: Int, _ pan: Float, seconds: Float, into changes: inout [Change]) {
        guard state.scene.sources[n - 1].pan != pan else { return }
        state.scene.sources[n - 1].pan = pan
        sceneChanged = true
        touched.append(.source(n, .pan))
        changes.append(Change(ramp: Int32(parameters.sourcePan(n)), position: pan, value: pan, seconds: seconds))
    }

    /// Mutes ramp to silence and back as gates; solos change the solo gates
    /// (see `updateSoloGates`); safes change no sound.
    func setSwitch(_ target: Target, _ on: Bool, seconds: Float, into changes: inout [Change]) {
        switch target {
        case .source(let n, .mute):
            guard state.scene.sources[n - 1].mute != on else { return }
            state.scene.sources[n - 1].mute = on
            changes.append(gate(parameters.sourceMute(n), open: !on, seconds: seconds))
        case .source(let n, .solo):
            guard state.scene.sources[n - 1].solo != on else { return }
            state.scene.sources[n - 1].solo = on
        case .output(let m, .mute):
            guard state.scene.outputs[m - 1].mute != on else { return }
            state.scene.outputs[m - 1].mute = on
            changes.append(gate(parameters.outputMute(m), open: !on, seconds: seconds))
        case .master(.mute):
            guard state.scene.master.mute != on else { return }
            state.scene.master.mute = on
            changes.append(gate(parameters.masterMute, open: !on, seconds: seconds))
        case .safe(.source(let n)):
            if on { state.safes.sources.insert(n) } else { state.safes.sources.remove(n) }
            touched.append(target)
            return
        case .safe(.output(let m)):
            if on { state.safes.outputs.insert(m) } else { state.safes.outputs.remove(m) }
            touched.append(target)
            return
        case .safe(.master):
            state.safes.master = on
            touched.append(target)
            return
        default:
            return
        }
        sceneChanged = true
        touched.append(target)
    }

    func setName(_ target: Target, _ name: String) {
        switch target {
        case .source(let n, _) where state.scene.sources[n - 1].name != name:
            state.scene.sources[n - 1].name = name
        case .output(let m, _) where state.scene.outputs[m - 1].name != name:
            state.scene.outputs[m - 1].name = name
        default:
            return
        }
        sceneChanged = true
        touched.append(target)
    }

    /// A gate ramps linearly between heard (1) and silent (0).
    func gate(_ ramp: Int, open: Bool, seconds: Float) -> Change {
        Change(ramp: Int32(ramp), position: open ? 1 : 0, value: open ? 1 : 0, seconds: seconds)
    }

    /// Whether each source is heard as far as solo goes.
    func soloGates() -> [Bool] {
        stride(from: 1, through: state.scene.inputCount, by: 1).map { !state.scene.isSilencedBySolo($0) }
    }

    /// After solos changed: ramps every solo gate that opened or closed.
    func updateSoloGates(from before: [Bool], seconds: Float, into changes: inout [Change]) {
        for (index, (was, now)) in zip(before, soloGates()).enumerated() where was != now {
            changes.append(gate(parameters.sourceSolo(index + 1), open: now, seconds: seconds))
        }
    }

    /// Moves every parameter that differs to its value in `target`, all in
    /// one batch (so in the same audio period) and all over `seconds`: levels
    /// by fader law, pans linearly, mutes and solos as gates.
    func transition(to target: Scene, seconds: Float, into changes: inout [Change]) {
        let gates = soloGates()
        for (index, source) in target.sources.enumerated() {
            let n = index + 1
            setLevel(.source(n, .volume), source.volume, seconds: seconds, into: &changes)
            setPan(n, source.pan, seconds: seconds, into: &changes)
            setSwitch(.source(n, .mute), source.mute, seconds: seconds, into: &changes)
            setSwitch(.source(n, .solo), source.solo, seconds: seconds, into: &changes)
            setName(.source(n, .name), source.name)
        }
        transitionCrosspoints(to: target.crosspoints, seconds: seconds, into: &changes)
        for (index, output) in target.outputs.enumerated() {
            setLevel(.output(index + 1, .volume), output.volume, seconds: seconds, into: &changes)
            setSwitch(.output(index + 1, .mute), output.mute, seconds: seconds, into: &changes)
            setName(.output(index + 1, .name), output.name)
        }
        setLevel(.master(.volume), target.master.volume, seconds: seconds, into: &changes)
        setSwitch(.master(.mute), target.master.mute, seconds: seconds, into: &changes)
        updateSoloGates(from: gates, seconds: seconds, into: &changes)
    }

    /// What `setLevel` does for every crosspoint that differs, in one pass
    /// over the two matrices, with the live matrix taken out of the state
    /// once: a 64x64 recall visits 4,096 crosspoints.
    private func transitionCrosspoints(to target: CrosspointMatrix, seconds: Float, into changes: inout [Change]) {
        var live = state.scene.crosspoints
        guard live.inputs == target.inputs, live.outputs == target.outputs else {
            // Never for a fitted preset or the undo scene; crosspoint by crosspoint then.
            for n in stride(from: 1, through: min(live.inputs, target.inputs), by: 1) {
                for m in stride(from: 1, through: min(live.outputs, target.outputs), by: 1) {
                    setLevel(.crosspoint(input: n, output: m, .linear), target[n, m], seconds: seconds, into: &changes)
                }
            }
            return
        }
        let (before, wanted) = (live.gains, target.gains)
        var moved: [Target] = []
        var index = 0
        for n in stride(from: 1, through: live.inputs, by: 1) {
            for m in stride(from: 1, through: live.outputs, by: 1) {
                defer { index += 1 }
                let gain = wanted[index]
                guard gain != before[index] else { continue }
                live[n, m] = gain
                moved.append(.crosspoint(input: n, output: m, .linear))
                changes.append(Change(ramp: Int32(parameters.crosspoint(n, m)), position: FaderLaw.position(gain: gain),
                                      value: gain, seconds: seconds))
            }
        }
        guard !moved.isEmpty else { return }
        state.scene.crosspoints = live
        sceneChanged = true
        touched += moved
    }
}
