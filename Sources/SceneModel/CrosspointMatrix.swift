/// The routing matrix: the linear gain (0…4) from every input to every output.
public struct CrosspointMatrix: Equatable, Sendable {
    public let inputs: Int
    public let outputs: Int
    /// Row-major by input: gains[(input − 1) · outputs + (output − 1)].
    public private(set) var gains: [Float]

    /// A matrix with nothing routed.
    public init(inputs: Int, outputs: Int) {
        self.inputs = inputs
        self.outputs = outputs
        gains = Array(repeating: 0, count: inputs * outputs)
    }

    /// Identity routing: input k to output k at unity, for k ≤ min(inputs, outputs).
    public static func identity(inputs: Int, outputs: Int) -> CrosspointMatrix {
        var matrix = CrosspointMatrix(inputs: inputs, outputs: outputs)
        for k in 0..<min(inputs, outputs) {
            matrix[k + 1, k + 1] = 1
        }
        return matrix
    }

    /// The crosspoint from `input` to `output`, both 1-based.
    public subscript(input: Int, output: Int) -> Float {
        get { gains[(input - 1) * outputs + (output - 1)] }
        set { gains[(input - 1) * outputs + (output - 1)] = newValue }
    }
}
