/// The render kernel's ramps, structure-of-arrays, as the SIMD paths are
/// handed them: per slot its fader position, value, targets, step per
/// sample, samples remaining, and per-period ratio (`RenderKernel` says
/// what each holds).
@frozen
public struct RampArrays: @unchecked Sendable {
    public let position, value, targetPosition, targetValue, step, ratio: UnsafeMutablePointer<Float>
    public let remaining: UnsafeMutablePointer<Int32>

    @inlinable
    public init(position: UnsafeMutablePointer<Float>, value: UnsafeMutablePointer<Float>,
                targetPosition: UnsafeMutablePointer<Float>, targetValue: UnsafeMutablePointer<Float>,
                step: UnsafeMutablePointer<Float>, ratio: UnsafeMutablePointer<Float>, remaining: UnsafeMutablePointer<Int32>) {
        (self.position, self.value, self.targetPosition, self.targetValue) = (position, value, targetPosition, targetValue)
        (self.step, self.ratio, self.remaining) = (step, ratio, remaining)
    }
}
