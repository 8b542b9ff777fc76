/// What the mixing loops and the fold read and write: the render kernel's
/// per-output gains, lists and flags, as plain pointers into its
/// arena. Every SIMD path (`MixPathBase`, `MixPathAVX2`, `MixPathAVX512`,
/// the same source compiled for each CPU level) is handed this, so that
/// none of them needs the kernel's type, and the kernel needs none of
/// their code inlined into its own module. docs/performance.md, "SIMD
/// paths", says why.
@frozen
public struct MixRows: @unchecked Sendable {
    public let inputs: Int
    public let outputs: Int
    /// Floats from one output's row of gains to the next (inputs padded to 16).
    public let inputStride: Int
    /// Effective gain of each crosspoint at the start of the period, and its
    /// change per 16 frames of the period (its change over the period ·
    /// 16/frames: the mixing loops step a gain a vector of 16 frames at a
    /// time, `sixteenths`); [output · inputStride + input].
    public let gainStart: UnsafeMutablePointer<Float>
    public let gainDelta: UnsafeMutablePointer<Float>
    /// The gain at the end of the period (the next period's start).
    public let gainEnd: UnsafeMutablePointer<Float>
    /// −1 where the crosspoint is in use this period (start or end non-zero), else 0.
    public let inUse: UnsafeMutablePointer<Int32>
    /// Per output: the inputs in use, and how many.
    public let activeInputs: UnsafeMutablePointer<Int32>
    public let activeCount: UnsafeMutablePointer<Int>
    /// Per output, in list order: the start gain and change of each input in use.
    public let compactStart: UnsafeMutablePointer<Float>
    public let compactDelta: UnsafeMutablePointer<Float>
    /// Per output, in list order: the buffer of each input in use, valid
    /// while `gatheredValid` says so.
    public let gathered: UnsafeMutablePointer<UnsafeRawPointer>
    public let gatheredValid: UnsafeMutablePointer<Bool>
    /// Per output: gains differ between start and end of this period.
    public let rowRamping: UnsafeMutablePointer<Bool>
    /// (k + 1)/16: sample k's share of a gain's change per 16 frames
    /// (`gainDelta`), whatever the period's length; exact in a float.
    public let sixteenths: UnsafeMutablePointer<Float>

    @inlinable
    public init(inputs: Int, outputs: Int, inputStride: Int,
                gainStart: UnsafeMutablePointer<Float>, gainDelta: UnsafeMutablePointer<Float>,
                gainEnd: UnsafeMutablePointer<Float>, inUse: UnsafeMutablePointer<Int32>,
                activeInputs: UnsafeMutablePointer<Int32>, activeCount: UnsafeMutablePointer<Int>,
                compactStart: UnsafeMutablePointer<Float>, compactDelta: UnsafeMutablePointer<Float>,
                gathered: UnsafeMutablePointer<UnsafeRawPointer>, gatheredValid: UnsafeMutablePointer<Bool>,
                rowRamping: UnsafeMutablePointer<Bool>,
                sixteenths: UnsafeMutablePointer<Float>) {
        (self.inputs, self.outputs, self.inputStride) = (inputs, outputs, inputStride)
        (self.gainStart, self.gainDelta, self.gainEnd, self.inUse) = (gainStart, gainDelta, gainEnd, inUse)
        (self.activeInputs, self.activeCount) = (activeInputs, activeCount)
        (self.compactStart, self.compactDelta) = (compactStart, compactDelta)
        (self.gathered, self.gatheredValid) = (gathered, gatheredValid)
        (self.rowRamping, self.sixteenths) = (rowRamping, sixteenths)
    }
}
