/// Numbers every parameter the audio thread ramps, so that a `Change` names
/// one with a single integer. Channel numbers are 1-based, as on the wire.
///
/// Layout, in blocks: source volumes, pans, mute gates and solo gates (N
/// each), output volumes and mute gates (M each), master volume and mute
/// gate, then the crosspoints row by row (input-major). The kernel walks the
/// blocks through their first indexes, which are stored.
public struct ParameterIndex: Equatable, Sendable {
    public let inputs: Int
    public let outputs: Int
    /// First index of each block.
    public let sourceVolumes, sourcePans, sourceMutes, sourceSolos: Int
    public let outputVolumes, outputMutes: Int
    public let masterVolume, masterMute: Int
    public let crosspoints: Int
    /// How many parameters there are.
    public let count: Int

    public init(inputs: Int, outputs: Int) {
        self.inputs = inputs
        self.outputs = outputs
        sourceVolumes = 0
        sourcePans = inputs
        sourceMutes = 2 * inputs
        sourceSolos = 3 * inputs
        outputVolumes = 4 * inputs
        outputMutes = outputVolumes + outputs
        masterVolume = outputMutes + outputs
        masterMute = masterVolume + 1
        crosspoints = masterMute + 1
        count = crosspoints + inputs * outputs
    }

    public func sourceVolume(_ n: Int) -> Int { sourceVolumes + n - 1 }
    public func sourcePan(_ n: Int) -> Int { sourcePans + n - 1 }
    /// 1 while the source is heard, 0 while muted.
    public func sourceMute(_ n: Int) -> Int { sourceMutes + n - 1 }
    /// 1 while the source is heard, 0 while another source's solo silences it.
    public func sourceSolo(_ n: Int) -> Int { sourceSolos + n - 1 }
    public func outputVolume(_ m: Int) -> Int { outputVolumes + m - 1 }
    /// 1 while the output is heard, 0 while muted.
    public func outputMute(_ m: Int) -> Int { outputMutes + m - 1 }
    public func crosspoint(_ input: Int, _ output: Int) -> Int {
        crosspoints + (input - 1) * outputs + (output - 1)
    }

    /// The shape each parameter ramps in: levels by fader law, the rest linearly.
    public func shape(of ramp: Int) -> Ramp.Shape {
        switch ramp {
        case sourceVolumes..<sourcePans, outputVolumes..<outputMutes, masterVolume, crosspoints...:
            return .fader
        default:
            return .linear
        }
    }
}
