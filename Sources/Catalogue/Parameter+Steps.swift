import MixCore

/// Relative control: `ADDRESS/delta f step [f fade]` moves a continuous
/// parameter by a step from its current (target) value, for encoders and
/// scripts. The step is counted in the unit of the address it follows:
///
///     …/db/delta, …/volume/delta, /matrix/{in}/{out}/delta   dB
///     …/fader/delta                                          fader position
///     …/pan/delta, …/delay/delta (numbers)                   the number's own unit
///
/// (a linear gain is stepped in dB: equal steps in gain would be coarse at
/// the top and useless near silence). The result is clamped to the address's
/// range; silence counts as −90 dB, so +6 dB from silence is −84 dB. A value
/// already beyond the range (a level above +10 dB on the fader scale) steps
/// from where it is rather than jumping to the edge.
extension Parameter.Kind {
    /// Where a step of `step` from `current` lands, addressed in `form`.
    public func stepped(_ form: Parameter.Form, from current: Parameter.Value, by step: Double) -> Parameter.Value {
        // Where the value is in the step's unit, the range there, and back.
        let from: Double, range: ClosedRange<Float>, back: (Double) -> Float
        switch (self, form) {
        case (.level, .fader):
            from = Double(FaderLaw.position(gain: current.number)) // above 1 past +10 dB
            range = Parameter.Level.positions
            back = { value($0, in: .fader).number }
        case (.level, .decibels):
            from = Double(FaderLaw.decibels(gain: current.number)) // silence is -90
            range = Parameter.Level.decibels
            back = { value($0, in: .decibels).number }
        case (.level, _):
            // Linear 0…4: stepped in dB, up to +12.04 dB (4).
            from = Double(FaderLaw.decibels(gain: current.number))
            range = FaderLaw.floorDecibels...FaderLaw.ceilingDecibels
            back = { min(Parameter.Level.gains.upperBound, FaderLaw.gain(decibels: Float($0))) }
        case (.number(let numbers, _), _):
            from = Double(current.number)
            range = numbers
            back = { Float($0) }
        case (.toggle, _), (.text, _):
            return current // no `/delta` address leads here (not continuous)
        }
        // Widened to take in the value itself: a step never pulls a value from
        // beyond the range onto its edge.
        let to = min(max(from + step, min(Double(range.lowerBound), from)), max(Double(range.upperBound), from))
        // An encoder turned on against the end changes nothing (not even by
        // the rounding of going there and back).
        return to == from ? current : .number(back(to))
    }
}
