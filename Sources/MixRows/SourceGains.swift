/// What the fold of the sources' gains before the matrix reads and writes
/// (`RenderKernel.foldSources`), as plain pointers into the render kernel's
/// arena: the ramps' values, where each source block of them starts, and
/// the four folded gains per source. Handed to the SIMD path the kernel
/// runs, like `MixRows`, so that the fold is built for that CPU.
@frozen
public struct SourceGains: @unchecked Sendable {
    /// The ramps' values, and the first slot of each source gain block
    /// (volume, polarity, …, the solo and mute gates last).
    public let value: UnsafePointer<Float>
    public let gainBases: UnsafePointer<Int>
    /// How many gain blocks there are, and how many of them the meter hears
    /// (all but the gates).
    public let blocks: Int
    public let heard: Int
    /// First slot of the pans and of the links; −1: none.
    public let panBase: Int
    public let linkBase: Int
    public let panLaw: PanLaw
    /// Per source: the product of its gains, what its meter reads, and the
    /// product through each side of its pan (`RenderKernel` says more).
    public let mono, meter, left, right: UnsafeMutablePointer<Float>

    @inlinable
    public init(value: UnsafePointer<Float>, gainBases: UnsafePointer<Int>, blocks: Int, heard: Int, panBase: Int,
                linkBase: Int, panLaw: PanLaw, mono: UnsafeMutablePointer<Float>, meter: UnsafeMutablePointer<Float>,
                left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>) {
        (self.value, self.gainBases, self.blocks, self.heard) = (value, gainBases, blocks, heard)
        (self.panBase, self.linkBase, self.panLaw) = (panBase, linkBase, panLaw)
        (self.mono, self.meter, self.left, self.right) = (mono, meter, left, right)
    }
}
