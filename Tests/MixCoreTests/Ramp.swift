@testable import MixCore

/// A parameter moving to its target one sample at a time: the plain model
/// of what the render kernel does to 16 ramps at once, which the kernel
/// reference tests hold it to (the kernel itself keeps its ramps as
/// structure-of-arrays and never makes a `Ramp`).
///
/// The ramp is linear in its own domain: for levels that domain is the fader
/// position of `FaderLaw`, so a fade sounds like a hand on a fader (evenly in
/// position, hence slowly through the loud top and quickly to silence at the
/// bottom); for pans and mute gates it is the value itself.
struct Ramp: Sendable {
    typealias Shape = RampBlock.Shape

    let shape: Shape
    /// Where the ramp is now, in its domain.
    var position: Float
    /// The parameter's value now (the gain for a fader ramp).
    var value: Float
    var targetPosition: Float
    var targetValue: Float
    /// Change of position per sample while moving.
    var step: Float = 0
    /// Samples until the target is reached; 0 when settled.
    var remaining = 0

    init(shape: Shape, position: Float, value: Float) {
        self.shape = shape
        self.position = position
        self.value = value
        targetPosition = position
        targetValue = value
    }

    var isMoving: Bool { remaining > 0 }

    /// Heads for a new target from wherever the ramp is now, arriving after
    /// `samples` samples (at once for 0). The exact target value is kept so
    /// that a settled parameter is bit-exact, not a rounded power of ten.
    mutating func start(toPosition target: Float, value: Float, samples: Int) {
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
    mutating func advance(frames: Int) -> Bool {
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

extension RenderKernel {
    /// A parameter's ramp as it stands in the kernel's arrays.
    func ramp(_ i: Int) -> Ramp {
        var ramp = Ramp(shape: rampLayout.shape(ofSlot: i), position: ramps.livePosition(i), value: value[i])
        ramp.targetPosition = targetPosition[i]
        ramp.targetValue = targetValue[i]
        ramp.step = step[i]
        ramp.remaining = Int(remaining[i])
        return ramp
    }
}
