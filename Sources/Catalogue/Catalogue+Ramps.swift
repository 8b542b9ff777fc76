import MixCore
import SceneModel

/// The kernel's side of the catalogue: its ramp layout, and the changes
/// that move a parameter (or a whole scene) there.
extension Catalogue {
    /// Where each ramp lives, for a rig of this size.
    public func rampLayout(inputs: Int, outputs: Int) -> RampLayout {
        RampLayout(inputs: inputs, outputs: outputs, blocks: blocks)
    }

    /// The change that takes parameter `number` at `place` to `value` over
    /// `seconds`; nil for parameters the kernel does not hold (and solos:
    /// see `soloGate`).
    public func change(_ number: Int, at place: Parameter.Place, to value: Parameter.Value,
                       in layout: RampLayout, seconds: Float) -> Change? {
        switch parameters[number].kernel {
        case .none, .soloGate, .groups, .talkbacks, .listen:
            return nil
        case .crosspoint:
            guard case .crosspoint(let i, let o) = place else { return nil }
            return Self.level(layout.crosspoint(i, o), value.number, seconds: seconds)
        case .ramp(let block, let ramp):
            guard let index = blockOfParameter[number] else { return nil }
            let slot = layout.slot(block: index, channel: place.channel)
            return block.shape == .fader ? Self.level(slot, ramp(value), seconds: seconds)
                : Change(ramp: Int32(slot), position: ramp(value), value: ramp(value), seconds: seconds)
        }
    }

    /// A source's solo gate opening (heard) or closing.
    public func soloGate(_ n: Int, open: Bool, in layout: RampLayout, seconds: Float) -> Change {
        let gate: Float = open ? 1 : 0
        return Change(ramp: Int32(layout.slot(block: soloGateBlock, channel: n)), position: gate, value: gate,
                      seconds: seconds)
    }

    /// A level ramp: its position on the fader law, its value the gain.
    static func level(_ slot: Int, _ gain: Float, seconds: Float) -> Change {
        Change(ramp: Int32(slot), position: FaderLaw.position(gain: gain), value: gain, seconds: seconds)
    }

    /// The changes that take every ramp to its value in `scene`; the
    /// listen's outputs on their `sides` (nil: as `OutputLayout` pairs them
    /// with no output marked mono).
    public func changes(toReach scene: Scene, in layout: RampLayout, seconds: Float,
                        sides: [OutputLayout.Side]? = nil) -> [Change] {
        var changes: [Change] = []
        changes.reserveCapacity(layout.slots)
        for (number, parameter) in parameters.enumerated() {
            for place in places(parameter.strip, of: scene) {
                if let change = change(number, at: place, to: parameter.get(scene, place), in: layout, seconds: seconds) {
                    changes.append(change)
                }
            }
        }
        for n in stride(from: 1, through: scene.inputCount, by: 1) {
            changes.append(soloGate(n, open: !scene.isSilencedBySolo(n), in: layout, seconds: seconds))
            changes += groupChanges(n, in: scene, layout: layout, seconds: seconds, gateSeconds: seconds)
        }
        return changes + talkChanges(from: nil, to: scene, in: layout, seconds: seconds)
            + listenChanges(from: nil, to: scene, in: layout, sides: sides ?? OutputLayout(outputs: scene.outputCount).sides,
                            seconds: seconds)
    }
}

extension Mixer {
    /// A mixer for `catalogue`'s parameters, starting at `scene`, on the SIMD path `simd`.
    public convenience init(scene: Scene, catalogue: Catalogue = Catalogue(), panLaw: PanLaw, layout: OutputLayout,
                            queueCapacity: Int = 8192, maxFrames: Int = 8192, simd: SIMDPath = .inUse) {
        let ramps = catalogue.rampLayout(inputs: scene.inputCount, outputs: scene.outputCount)
        self.init(ramps: ramps, initial: catalogue.changes(toReach: scene, in: ramps, seconds: 0, sides: layout.sides), panLaw: panLaw,
                  layout: layout, queueCapacity: queueCapacity, maxFrames: maxFrames,
                  longestDelay: Double(catalogue.longestDelay) / 1000, simd: simd)
    }
}
