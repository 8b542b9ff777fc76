import Catalogue
import MixCore
import Presets
import SceneModel

/// A rig that changes size while it plays (`/rig/inputs`, `/rig/outputs`;
/// docs/architecture.md, "A change of size").
extension LiveScene {
    /// The scene to `inputs` sources and `outputs` outputs. Channels are
    /// added at the end with their defaults and no crosspoint into or out of
    /// them, and removed from the end with everything of theirs
    /// (crosspoints, names, safes, links, patches, fades); nothing else
    /// changes. The mixer is handed a kernel of the new size, which takes
    /// over at a period boundary, every channel that stays playing on
    /// (`Mixer.reshape`). What a removal changes for the channels that stay
    /// (a solo gone opens the others' gates, a pair whose right member went
    /// is unlinked) moves over the smoothing time. The undo state is fitted
    /// to the new size too. Under the lock; the packet's changes so far are
    /// restaged for the new layout (a bundle's go to the mixer together).
    /// Returns the old layout's slots in the new (−1: gone), for what else
    /// holds changes staged for the old one.
    @discardableResult
    func resize(inputs: Int, outputs: Int) -> [Int32] {
        let before = (inputs: state.scene.inputCount, outputs: state.scene.outputCount)
        guard before != (inputs, outputs) else { return [] }
        let gates = soloGates()
        let (scene, _) = Preset(name: "", scene: state.scene).fitted(inputs: inputs, outputs: outputs)
        state.scene = catalogue.droppingMemberships(of: .output, beyond: outputs, upTo: before.outputs, in: scene)
        for n in before.inputs..<max(before.inputs, inputs) { state.scene.sources[n].direct = directOuts }
        let link = catalogue.number(.source, "link")
        // A linked source whose partner is gone is heard alone again: its
        // link ramp, kept by the new kernel, is moved back below.
        var unlinked: [Int] = []
        if inputs % 2 == 1 && inputs < before.inputs && state.scene.sources[inputs - 1].link {
            state.scene.sources[inputs - 1].link = false
            unlinked.append(inputs)
        }
        state.safes.fit(to: state.scene, catalogue: catalogue)
        for key in fades.fades.keys where !Self.fits(key, inputs: inputs, outputs: outputs) { fades.end(key) }
        touched.removeAll { !Self.fits($0, inputs: inputs, outputs: outputs) }
        undoState = undoState?.fitted(inputs: inputs, outputs: outputs, catalogue: catalogue).state
        let next = catalogue.rampLayout(inputs: inputs, outputs: outputs)
        let remap = ramps.remap(to: next)
        pending = RampLayout.restage(pending, by: remap)
        ramps = next
        space.withLock { $0 = AddressSpace(counts: catalogue.counts(of: state.scene), catalogue: catalogue) }
        let layout = mixer.layout.resized(outputs: outputs)
        mixer.reshape(to: ramps, initial: catalogue.changes(toReach: state.scene, in: ramps, seconds: 0, sides: layout.sides),
                      layout: layout)
        var changes: [Change] = []
        updateSoloGates(from: Array(gates.prefix(inputs)), seconds: smoothing, into: &changes)
        for n in unlinked {
            if let link, let change = catalogue.change(link, at: .source(n), to: .toggle(false), in: ramps,
                                                       seconds: smoothing) {
                changes.append(change)
                touched.append(.parameter(link, .source(n), .plain))
            }
        }
        // The listen's shares as the new size has them (a pair unlinked above, an output gone).
        updateListen(from: nil, into: &changes)
        submit(changes)
        // The new channels' every parameter and safe, for feedback.
        touched += allParameters(inputs: inputs, outputs: outputs).filter {
            !Self.fits($0, inputs: before.inputs, outputs: before.outputs)
        }
        touched.append(.command(inputs != before.inputs ? .rigInputs : .rigOutputs))
        changed = true
        return remap
    }

    /// Whether a target names only channels a rig of this size has.
    static func fits(_ target: Target, inputs: Int, outputs: Int) -> Bool {
        func fits(_ place: Parameter.Place) -> Bool {
            switch place {
            case .source(let n): n <= inputs
            case .output(let m): m <= outputs
            case .master, .listen: true
            case .crosspoint(let n, let m): n <= inputs && m <= outputs
            case .dca, .muteGroup, .numbered: true
            case .dcaMember(let n, _), .muteGroupMember(let n, _): n <= inputs
            case .talkbackOutput(_, let m): m <= outputs
            }
        }
        switch target {
        case .parameter(_, let place, _), .delta(_, let place, _), .touch(_, let place, _), .current(_, let place, _):
            return fits(place)
        case .safe(let safe) where safe.kind == .source: return safe.channel <= inputs
        case .safe(let safe) where safe.kind == .output || safe.kind == .mix: return safe.channel <= outputs
        case .safe, .command, .recallPreset: return true
        }
    }
}
