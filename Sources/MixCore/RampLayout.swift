/// Where each parameter's ramp lives in the render kernel's arrays: the one
/// place that knows the block layout.
///
/// Blocks, each padded to 16 lanes so that a ramp update is one `SIMD16`
/// operation for 16 parameters: source volumes, pans, mute gates and solo
/// gates (one block of `inputStride` each), output volumes and mute gates
/// (`outputStride` each), master volume and master mute gate (16 each), then
/// the crosspoints output-major: one padded row of inputs per output, the
/// order the mixing loop reads them in.
public struct RampLayout: Equatable, Sendable {
    public let parameters: ParameterIndex
    /// Inputs rounded up to 16: the stride of a crosspoint row and of each source block.
    public let inputStride: Int
    /// Outputs rounded up to 16: the length of each output block.
    public let outputStride: Int
    /// First slot of each block.
    public let outputBase: Int
    public let masterBase: Int
    public let crosspointBase: Int
    /// Slots in all (a multiple of 16).
    public let slots: Int
    /// The master mute gate's slot: the second master block.
    public let masterMuteSlot: Int

    public init(inputs: Int, outputs: Int) {
        parameters = ParameterIndex(inputs: inputs, outputs: outputs)
        let lanes = RenderKernel.lanes
        inputStride = max(lanes, (inputs + lanes - 1) / lanes * lanes)
        outputStride = max(lanes, (outputs + lanes - 1) / lanes * lanes)
        outputBase = 4 * inputStride
        masterBase = outputBase + 2 * outputStride
        crosspointBase = masterBase + 2 * lanes
        slots = crosspointBase + outputs * inputStride
        masterMuteSlot = masterBase + lanes
    }

    /// The slot of the ramp a `ParameterIndex` number names.
    @inlinable @_noLocks
    public func slot(ofRamp r: Int) -> Int {
        let p = parameters
        if r >= p.crosspoints {
            let k = r - p.crosspoints
            let n = k / p.outputs, m = k - n * p.outputs
            return crosspointBase + m * inputStride + n
        }
        if r < p.outputVolumes {
            let block = r / p.inputs
            return block * inputStride + (r - block * p.inputs)
        }
        if r < p.outputMutes { return outputBase + (r - p.outputVolumes) }
        if r < p.masterVolume { return outputBase + outputStride + (r - p.outputMutes) }
        return r == p.masterVolume ? masterBase : masterMuteSlot
    }
}
