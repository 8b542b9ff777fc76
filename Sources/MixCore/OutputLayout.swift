/// Which outputs form stereo pairs, for panning.
///
/// Outputs pair up as (1,2), (3,4), …. A pair is stereo only when neither of
/// its outputs is marked mono; an output whose partner is mono, or that has no
/// partner (the last of an odd count), is mono itself. A source's pan acts on
/// stereo pairs only; mono outputs take the crosspoint gain unchanged.
public struct OutputLayout: Equatable, Sendable {
    public enum Side: UInt8, Sendable {
        case mono, left, right
    }

    public let sides: [Side]
    /// The outputs marked mono (1-based), whether the rig has them now or not.
    public let monoOutputs: Set<Int>

    /// `monoOutputs` are 1-based output numbers.
    public init(outputs: Int, monoOutputs: Set<Int> = []) {
        self.monoOutputs = monoOutputs
        var sides = Array(repeating: Side.mono, count: outputs)
        var left = 1
        while left + 1 <= outputs {
            if !monoOutputs.contains(left) && !monoOutputs.contains(left + 1) {
                sides[left - 1] = .left
                sides[left] = .right
            }
            left += 2
        }
        self.sides = sides
    }

    /// The same marks for a rig of `outputs` outputs: a pair whose right
    /// output goes is mono until it comes back.
    public func resized(outputs: Int) -> OutputLayout { OutputLayout(outputs: outputs, monoOutputs: monoOutputs) }
}
