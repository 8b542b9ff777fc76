/// The render kernel's ramps, structure-of-arrays, as the SIMD paths are
/// handed them: per slot its fader position, value, targets, step per
/// sample, samples remaining, per-period ratio and the samples remaining at
/// which a level may next leave its segment of the fader law (`RenderKernel`
/// says what each holds).
@frozen
public struct RampArrays: @unchecked Sendable {
    public let position, value, targetPosition, targetValue, step, ratio: UnsafeMutablePointer<Float>
    public let remaining, boundary: UnsafeMutablePointer<Int32>

    @inlinable
    public init(position: UnsafeMutablePointer<Float>, value: UnsafeMutablePointer<Float>,
                targetPosition: UnsafeMutablePointer<Float>, targetValue: UnsafeMutablePointer<Float>,
                step: UnsafeMutablePointer<Float>, ratio: UnsafeMutablePointer<Float>,
                remaining: UnsafeMutablePointer<Int32>, boundary: UnsafeMutablePointer<Int32>) {
        (self.position, self.value, self.targetPosition, self.targetValue) = (position, value, targetPosition, targetValue)
        (self.step, self.ratio, self.remaining, self.boundary) = (step, ratio, remaining, boundary)
    }

    /// Where slot i's ramp stands: while it moves, `targetPosition − step ·
    /// remaining` (the positions are not stepped period by period: a level
    /// moving by its ratio touches only its value and what remains);
    /// settled, `position`.
    @inlinable @inline(__always) @_noLocks
    public func livePosition(_ i: Int) -> Float {
        remaining[i] > 0 ? targetPosition[i] - step[i] * Float(remaining[i]) : position[i]
    }
}
