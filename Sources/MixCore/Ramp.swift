/// A parameter moving to its target one sample at a time.
///
/// The ramp is linear in its own domain: for levels that domain is the fader
/// position of `FaderLaw`, so a fade sounds like a hand on a fader (evenly in
/// position, hence slowly through the loud top and quickly to silence at the
/// bottom); for pans and mute gates it is the value itself.
public struct Ramp: Sendable {
    public enum Shape: UInt8, Sendable {
        case linear
        case fader
    }

    public let shape: Shape
    /// Where the ramp is now, in its domain.
    public var position: Float
    /// The parameter's value now (the gain for a fader ramp).
    public var value: Float
    public var targetPosition: Float
    public var targetValue: Float
    /// Change of position per sample while moving.
    public var step: Float = 0
    /// Samples until the target is reached; 0 when settled.
    public var remaining = 0

    public init(shape: Shape, position: Float, value: Float) {
        self.shape = shape
        self.position = position
        self.value = value
        targetPosition = position
        targetValue = value
    }

    @inlinable public var isMoving: Bool { remaining > 0 }

    /// Heads for a new target from wherever the ramp is now, arriving after
    /// `samples` samples (at once for 0). The exact target value is kept so
    /// that a settled parameter is bit-exact, not a rounded power of ten.
    @inlinable @_noLocks
    public mutating func start(toPosition target: Float, value: Float, samples: Int) {
        targetPosition = target
        targetValue = value
        if samples <= 0 {
            position = target
            self.value = value
            remaining = 0
        } else {
            step = (target - position) / Float(samples)
            remaining = samples
        }
    }

    /// Moves `frames` samples on. Returns whether the value changed.
    @inlinable @_noLocks
    public mutating func advance(frames: Int) -> Bool {
        guard remaining > 0 else { return false }
        if remaining <= frames {
            position = targetPosition
            value = targetValue
            remaining = 0
        } else {
            position += step * Float(frames)
            remaining -= frames
            value = shape == .fader ? FaderLaw.gain(position: position) : position
        }
        return true
    }
}
