/// Where the sources' EQ puts what it shapes (`Equalisers`), and the table
/// the mix reads its inputs through: each source's own buffer while its EQ
/// is flat, its shaped copy here while it runs. Made on the control side
/// with the kernel, one buffer of `maxFrames` per source (pages never
/// written cost no memory), and freed with it.
@usableFromInline
struct ShapedSources: ~Copyable {
    /// Per source: the buffer its EQ writes into.
    @usableFromInline let buffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// Per source: what the mix reads this period (`Equalisers.process`'s routes).
    @usableFromInline let routes: UnsafeMutablePointer<UnsafePointer<Float>>
    private let samples: UnsafeMutablePointer<Float>
    private let count: Int

    init(inputs: Int, maxFrames: Int) {
        count = max(1, inputs)
        samples = .allocate(capacity: count * maxFrames)
        buffers = .allocate(capacity: count)
        routes = .allocate(capacity: count)
        for n in 0..<count {
            buffers.advanced(by: n).initialize(to: samples + n * maxFrames)
            routes.advanced(by: n).initialize(to: UnsafePointer(samples + n * maxFrames))
        }
    }

    deinit {
        samples.deallocate()
        buffers.deallocate()
        routes.deallocate()
    }
}
