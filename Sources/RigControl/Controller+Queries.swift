import MixCore
import OSC

/// Answers to messages without arguments.
extension Controller {
    /// The target's current value at its own address, or the action for
    /// targets that are actions (`/matrix/clear`, `/status`, `/ping`).
    func answer(_ target: Target, from peer: OSCPeer) -> [OSCPacket] {
        func reply(_ arguments: OSCArgument...) -> [OSCPacket] {
            [.message(OSCMessage(target.address, arguments))]
        }
        let scene = state.scene
        switch target {
        case .source(let n, let parameter):
            let source = scene.sources[n - 1]
            switch parameter {
            case .volume: return reply(.float(source.volume))
            case .db: return reply(.float(FaderLaw.decibels(gain: source.volume)))
            case .pan: return reply(.float(source.pan))
            case .mute: return reply(.int32(source.mute ? 1 : 0))
            case .solo: return reply(.int32(source.solo ? 1 : 0))
            case .name: return reply(.string(source.name))
            }
        case .output(let m, let parameter):
            let output = scene.outputs[m - 1]
            switch parameter {
            case .volume: return reply(.float(output.volume))
            case .db: return reply(.float(FaderLaw.decibels(gain: output.volume)))
            case .mute: return reply(.int32(output.mute ? 1 : 0))
            case .name: return reply(.string(output.name))
            }
        case .master(let parameter):
            switch parameter {
            case .volume: return reply(.float(scene.master.volume))
            case .db: return reply(.float(FaderLaw.decibels(gain: scene.master.volume)))
            case .mute: return reply(.int32(scene.master.mute ? 1 : 0))
            }
        case .crosspoint(let i, let o, let unit):
            let gain = scene.crosspoints[i, o]
            return reply(.float(unit == .linear ? gain : FaderLaw.decibels(gain: gain)))
        case .matrixMap:
            return [.message(OSCMessage(target.address, channelMap(scene).map { .int32(Int32($0)) }))]
        case .matrixClear:
            var changes: [Change] = []
            clearMatrix(into: &changes)
            submit(changes)
            logger.debug("\(peer) /matrix/clear")
            return []
        case .safe(.source(let n)): return reply(.int32(state.safes.sources.contains(n) ? 1 : 0))
        case .safe(.output(let m)): return reply(.int32(state.safes.outputs.contains(m) ? 1 : 0))
        case .safe(.master): return reply(.int32(state.safes.master ? 1 : 0))
        case .status:
            return [.bundle(statusReport().map { OSCMessage("/status/\($0.0)", [$0.1]) })]
        case .ping:
            return [.message(OSCMessage("/pong"))]
        case .preset:
            return [] // handled before queries
        }
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
