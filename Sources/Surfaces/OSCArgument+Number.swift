import OSC

extension OSCArgument {
    /// The value the rig's feedback gives a surface as a number: a float,
    /// an integer, a double or a boolean (1 or 0); nil for anything else,
    /// or for a value that is not finite.
    var number: Float? {
        switch self {
        case .float(let value): value.isFinite ? value : nil
        case .int32(let value): Float(value)
        case .double(let value): value.isFinite ? Float(value) : nil
        case .bool(let value): value ? 1 : 0
        default: nil
        }
    }
}
