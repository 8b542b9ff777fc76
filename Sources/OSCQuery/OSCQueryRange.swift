import OSC

/// The range of one argument of an OSC method (one entry of `RANGE`):
/// a minimum and/or maximum, or the list of the only values accepted.
public struct OSCQueryRange: Sendable, Hashable {
    /// `MIN`: the smallest value expected.
    public var min: OSCArgument?
    /// `MAX`: the largest value expected.
    public var max: OSCArgument?
    /// `VALS`: the only values accepted (menu items, say).
    public var values: [OSCArgument]?

    public init(min: OSCArgument? = nil, max: OSCArgument? = nil, values: [OSCArgument]? = nil) {
        self.min = min
        self.max = max
        self.values = values
    }

    /// A float range.
    public static func between(_ min: Float, _ max: Float) -> OSCQueryRange {
        OSCQueryRange(min: .float(min), max: .float(max))
    }

    /// An integer range.
    public static func betweenIntegers(_ min: Int32, _ max: Int32) -> OSCQueryRange {
        OSCQueryRange(min: .int32(min), max: .int32(max))
    }

    /// A choice among `values`.
    public static func oneOf(_ values: [OSCArgument]) -> OSCQueryRange {
        OSCQueryRange(values: values)
    }
}
