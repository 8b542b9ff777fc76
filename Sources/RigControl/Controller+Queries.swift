import MixCore
import OSC

/// Answers to messages without arguments.
extension Controller {
    /// The target's current value at its own address, or the action for
    /// targets that are actions (`/matrix/clear`, `/status`, `/ping`).
    func answer(_ target: Target, from peer: OSCPeer) -> [OSCPacket] {
        if let value = currentValue(target) {
            return [.message(OSCMessage(target.address, value))]
        }
        switch target {
        case .matrixClear:
            var changes: [Change] = []
            clearMatrix(into: &changes)
            submit(changes)
            logger.debug("\(peer) /matrix/clear")
            return []
        case .status:
            let report = statusReport() + [("late_bundles", OSCArgument.int32(Int32(clamping: lateBundles)))]
            return [.bundle(report.map { OSCMessage("/status/\($0.0)", [$0.1]) })]
        case .ping:
            return [.message(OSCMessage("/pong"))]
        default:
            return []
        }
    }

    /// What a parameter is now, as its address carries it; nil for actions.
    func currentValue(_ target: Target) -> [OSCArgument]? {
        let scene = state.scene
        func level(_ gain: Float, _ unit: Target.LevelUnit) -> [OSCArgument] {
            switch unit {
            case .linear: [.float(gain)]
            case .decibels: [.float(FaderLaw.decibels(gain: gain))]
            case .fader: [.float(Self.faderPosition(gain))]
            }
        }
        switch target {
        case .source(let n, let parameter):
            let source = scene.sources[n - 1]
            switch parameter {
            case .volume: return level(source.volume, .linear)
            case .db: return level(source.volume, .decibels)
            case .fader: return level(source.volume, .fader)
            case .pan: return [.float(source.pan)]
            case .mute: return [.int32(source.mute ? 1 : 0)]
            case .solo: return [.int32(source.solo ? 1 : 0)]
            case .name: return [.string(source.name)]
            }
        case .output(let m, let parameter):
            let output = scene.outputs[m - 1]
            switch parameter {
            case .volume: return level(output.volume, .linear)
            case .db: return level(output.volume, .decibels)
            case .fader: return level(output.volume, .fader)
            case .mute: return [.int32(output.mute ? 1 : 0)]
            case .name: return [.string(output.name)]
            }
        case .master(let parameter):
            switch parameter {
            case .volume: return level(scene.master.volume, .linear)
            case .db: return level(scene.master.volume, .decibels)
            case .fader: return level(scene.master.volume, .fader)
            case .mute: return [.int32(scene.master.mute ? 1 : 0)]
            }
        case .crosspoint(let i, let o, let unit):
            return level(scene.crosspoints[i, o], unit)
        case .matrixMap:
            return channelMap(scene).map { .int32(Int32($0)) }
        case .safe(.source(let n)): return [.int32(state.safes.sources.contains(n) ? 1 : 0)]
        case .safe(.output(let m)): return [.int32(state.safes.outputs.contains(m) ? 1 : 0)]
        case .safe(.master): return [.int32(state.safes.master ? 1 : 0)]
        case .matrixClear, .status, .ping, .preset, .subscribe, .unsubscribe, .metersSubscribe, .metersUnsubscribe:
            return nil
        }
    }

    /// Feedback for changed parameters: every address form of each (a level
    /// as volume, dB and fader), and the channel map when routing changed.
    func feedbackMessages(for targets: [Target]) -> [OSCMessage] {
        var messages: [OSCMessage] = []
        var routing = false
        for target in targets {
            if case .crosspoint = target { routing = true }
            for form in target.levelForms {
                if let value = currentValue(form) { messages.append(OSCMessage(form.address, value)) }
            }
        }
        if routing, let map = currentValue(.matrixMap) { messages.append(OSCMessage("/matrix/map", map)) }
        return messages
    }

    /// Every parameter of the rig, for a subscriber's first full picture.
    func allParameters() -> [Target] {
        let scene = state.scene
        var targets: [Target] = []
        for n in stride(from: 1, through: scene.inputCount, by: 1) {
            targets += [.source(n, .volume), .source(n, .pan), .source(n, .mute), .source(n, .solo), .source(n, .name),
                        .safe(.source(n))]
        }
        for n in stride(from: 1, through: scene.inputCount, by: 1) {
            for m in stride(from: 1, through: scene.outputCount, by: 1) {
                targets.append(.crosspoint(input: n, output: m, .linear))
            }
        }
        for m in stride(from: 1, through: scene.outputCount, by: 1) {
            targets += [.output(m, .volume), .output(m, .mute), .output(m, .name), .safe(.output(m))]
        }
        targets += [.master(.volume), .master(.mute), .safe(.master)]
        return targets
    }

    /// The fader position 0…1 of a gain (levels above +10 dB show as 1).
    static func faderPosition(_ gain: Float) -> Float {
        min(1, FaderLaw.position(gain: gain))
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
