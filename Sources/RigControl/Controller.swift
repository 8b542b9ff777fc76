import Logging
import MixCore
import OSC

/// The control side of the rig: keeps the authoritative scene, answers the
/// OSC address space, and turns every accepted change into ramps for the
/// audio thread.
///
/// Called from one thread at a time (liblo's server thread). A message is
/// checked whole before anything changes: a bad argument for any target it
/// names rejects it with an `/error` reply and changes nothing.
public final class Controller: @unchecked Sendable {
    public private(set) var scene: Scene
    public let mixer: Mixer
    public let addressSpace: AddressSpace
    /// The ramp time of a change that names no fade, in seconds.
    public let smoothing: Float
    private let parameters: ParameterIndex
    private let logger: Logger
    private let status: @Sendable () -> [(String, OSCArgument)]
    private var bundleDepth = 0
    private var pending: [Change] = []

    public init(scene: Scene, mixer: Mixer, smoothingSeconds: Float, logger: Logger,
                status: @escaping @Sendable () -> [(String, OSCArgument)] = { [] }) {
        self.scene = scene
        self.mixer = mixer
        addressSpace = AddressSpace(inputs: scene.inputCount, outputs: scene.outputCount)
        smoothing = smoothingSeconds
        parameters = mixer.parameters
        self.logger = logger
        self.status = status
    }

    // MARK: - Bundles

    /// The messages of a bundle take effect together: their changes are held
    /// back until the bundle ends, then handed over as one batch.
    public func bundleStarted() { bundleDepth += 1 }

    public func bundleEnded() {
        bundleDepth = max(0, bundleDepth - 1)
        if bundleDepth == 0 { flush() }
    }

    private func flush() {
        guard !pending.isEmpty else { return }
        mixer.submit(pending)
        pending.removeAll(keepingCapacity: true)
    }

    // MARK: - Messages

    /// Handles one message and returns the replies for its sender.
    public func handle(_ message: OSCMessage, from peer: OSCPeer) -> [OSCPacket] {
        let targets: [Target]
        switch addressSpace.resolve(message.address) {
        case .failure(let error): return reject(message, error.description, from: peer)
        case .success(let resolved): targets = resolved
        }
        if message.arguments.isEmpty {
            return targets.flatMap { answer($0, from: peer) }
        }
        var edits: [Edit] = []
        do {
            for target in targets { edits.append(try edit(target, ArgumentReader(arguments: message.arguments))) }
        } catch {
            return reject(message, error.reason, from: peer)
        }
        let soloGatesBefore = soloGates()
        var changes: [Change] = []
        for edit in edits { apply(edit, into: &changes) }
        for (index, (before, after)) in zip(soloGatesBefore, soloGates()).enumerated() where before != after {
            changes.append(gate(parameters.sourceSolo(index + 1), open: after))
        }
        logger.debug("\(peer) \(message)")
        pending += changes
        if bundleDepth == 0 { flush() }
        return []
    }

    private func reject(_ message: OSCMessage, _ reason: String, from peer: OSCPeer) -> [OSCPacket] {
        logger.warning("rejected \(message) from \(peer): \(reason)")
        return [.message(OSCMessage("/error", [.string(message.address), .string(reason)]))]
    }

    // MARK: - Checking

    /// A checked change to one target, not yet applied.
    private enum Edit {
        case level(Target, gain: Float, fade: Float?)
        case pan(Int, Float, fade: Float?)
        case onOff(Target, Bool)
        case name(Target, String)
        case map([Int])
        case clear
        case none
    }

    private func edit(_ target: Target, _ args: ArgumentReader) throws(ArgumentReader.Failure) -> Edit {
        switch target {
        case .source(_, .volume), .output(_, .volume), .master(.volume), .crosspoint(_, _, .linear):
            let (value, fade) = try args.valueAndFade(in: 0...4)
            return .level(target, gain: Float(value), fade: fade.map(Float.init))
        case .source(_, .db), .output(_, .db), .master(.db), .crosspoint(_, _, .decibels):
            let (db, fade) = try args.valueAndFade(in: Double(FaderLaw.floorDecibels)...12)
            return .level(target, gain: FaderLaw.gain(decibels: Float(db)), fade: fade.map(Float.init))
        case .source(let n, .pan):
            let (value, fade) = try args.valueAndFade(in: -1...1)
            return .pan(n, Float(value), fade: fade.map(Float.init))
        case .source(_, .mute), .source(_, .solo), .output(_, .mute), .master(.mute):
            return .onOff(target, try args.onOff())
        case .source(_, .name), .output(_, .name):
            return .name(target, try args.name())
        case .matrixMap:
            return .map(try args.channelNumbers(in: 0...scene.inputCount, atMost: scene.outputCount))
        case .matrixClear:
            // A tablet button sends 1 when pressed and 0 when released.
            return try args.onOff() ? .clear : .none
        case .status, .ping:
            throw ArgumentReader.Failure(reason: "takes no arguments")
        }
    }

    // MARK: - Applying

    private func apply(_ edit: Edit, into changes: inout [Change]) {
        switch edit {
        case .level(let target, let gain, let fade):
            setLevel(target, gain, seconds: fade ?? smoothing, into: &changes)
        case .pan(let n, let pan, let fade):
            guard scene.sources[n - 1].pan != pan else { return }
            scene.sources[n - 1].pan = pan
            changes.append(Change(ramp: Int32(parameters.sourcePan(n)), position: pan, value: pan,
                                  seconds: fade ?? smoothing))
        case .onOff(let target, let on):
            setSwitch(target, on, into: &changes)
        case .name(.source(let n, _), let name):
            scene.sources[n - 1].name = name
        case .name(.output(let m, _), let name):
            scene.outputs[m - 1].name = name
        case .name:
            break
        case .map(let inputs):
            for (index, input) in inputs.enumerated() {
                for n in stride(from: 1, through: scene.inputCount, by: 1) {
                    setLevel(.crosspoint(input: n, output: index + 1, .linear), n == input ? 1 : 0,
                             seconds: smoothing, into: &changes)
                }
            }
        case .clear:
            for n in 0..<scene.inputCount {
                for m in 0..<scene.outputCount {
                    setLevel(.crosspoint(input: n + 1, output: m + 1, .linear), 0, seconds: smoothing, into: &changes)
                }
            }
        case .none:
            break
        }
    }

    /// Sets a level target, ramping by fader law. An unchanged target with no
    /// fade makes no change at all.
    private func setLevel(_ target: Target, _ gain: Float, seconds: Float, into changes: inout [Change]) {
        let ramp: Int
        switch target {
        case .source(let n, _):
            guard scene.sources[n - 1].volume != gain else { return }
            scene.sources[n - 1].volume = gain
            ramp = parameters.sourceVolume(n)
        case .output(let m, _):
            guard scene.outputs[m - 1].volume != gain else { return }
            scene.outputs[m - 1].volume = gain
            ramp = parameters.outputVolume(m)
        case .master:
            guard scene.master.volume != gain else { return }
            scene.master.volume = gain
            ramp = parameters.masterVolume
        case .crosspoint(let i, let o, _):
            guard scene.crosspoints[i, o] != gain else { return }
            scene.crosspoints[i, o] = gain
            ramp = parameters.crosspoint(i, o)
        default:
            return
        }
        changes.append(Change(ramp: Int32(ramp), position: FaderLaw.position(gain: gain), value: gain, seconds: seconds))
    }

    private func setSwitch(_ target: Target, _ on: Bool, into changes: inout [Change]) {
        switch target {
        case .source(let n, .mute):
            guard scene.sources[n - 1].mute != on else { return }
            scene.sources[n - 1].mute = on
            changes.append(gate(parameters.sourceMute(n), open: !on))
        case .source(let n, .solo):
            scene.sources[n - 1].solo = on // the solo gates follow in handle()
        case .output(let m, .mute):
            guard scene.outputs[m - 1].mute != on else { return }
            scene.outputs[m - 1].mute = on
            changes.append(gate(parameters.outputMute(m), open: !on))
        case .master(.mute):
            guard scene.master.mute != on else { return }
            scene.master.mute = on
            changes.append(gate(parameters.masterMute, open: !on))
        default:
            return
        }
    }

    /// Mutes and solos are gates that ramp over the smoothing time, so that
    /// switching never clicks.
    private func gate(_ ramp: Int, open: Bool) -> Change {
        Change(ramp: Int32(ramp), position: open ? 1 : 0, value: open ? 1 : 0, seconds: smoothing)
    }

    /// Whether each source is heard as far as solo goes.
    private func soloGates() -> [Bool] {
        stride(from: 1, through: scene.inputCount, by: 1).map { !scene.isSilencedBySolo($0) }
    }

    // MARK: - Queries

    /// The reply to a message with no arguments: the target's current value
    /// at its own address, or the action for targets that are actions.
    private func answer(_ target: Target, from peer: OSCPeer) -> [OSCPacket] {
        func reply(_ arguments: OSCArgument...) -> [OSCPacket] {
            [.message(OSCMessage(target.address, arguments))]
        }
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
            return [.message(OSCMessage(target.address, channelMap().map { .int32(Int32($0)) }))]
        case .matrixClear:
            var changes: [Change] = []
            apply(.clear, into: &changes)
            pending += changes
            if bundleDepth == 0 { flush() }
            logger.debug("\(peer) /matrix/clear")
            return []
        case .status:
            return [.bundle(status().map { OSCMessage("/status/\($0.0)", [$0.1]) })]
        case .ping:
            return [.message(OSCMessage("/pong"))]
        }
    }

    /// For each output, the input it takes at unity when that is its only
    /// crosspoint in use; 0 otherwise.
    public func channelMap() -> [Int] {
        stride(from: 1, through: scene.outputCount, by: 1).map { m in
            let used = stride(from: 1, through: scene.inputCount, by: 1).filter { scene.crosspoints[$0, m] != 0 }
            return used.count == 1 && scene.crosspoints[used[0], m] == 1 ? used[0] : 0
        }
    }
}
