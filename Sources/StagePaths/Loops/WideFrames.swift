#if WIDE_REGISTERS
import CFrames

/// Audio thread: sixteen channels' runs of samples as frames of sixteen
/// lanes and back, for the EQ's and the limiters' pairs of groups on
/// AVX-512. The transposes are C (`CFrames`, frames.c): written in Swift,
/// the compiler merged their three stages of shuffles into one shuffle of
/// eight vectors and built it lane by lane, about twice the instructions.
///
/// The `@_noLocks` checker cannot see into C, so these two calls are left
/// out of it (`no_performance_analysis`). What they call neither allocates,
/// locks nor calls anything (loads, shuffles, stores), and
/// `PerformanceAllocationTests` counts allocations and locks in the process
/// callback on every path with the EQ and the limiters running in pairs.
enum WideFrames {
    /// Frames `offset` ..< `offset + count` of `channels[0 ..< 16]` into
    /// `frames`, a frame (sixteen lanes, channel 0 first) after another.
    @_semantics("no_performance_analysis") @inline(__always)
    static func gather(_ channels: UnsafePointer<UnsafeMutablePointer<Float>?>, offset: Int, count: Int,
                       into frames: UnsafeMutablePointer<SIMD16<Float>>) {
        crosspoint_frames_from_channels16(channels, offset, count,
                                          UnsafeMutableRawPointer(frames).assumingMemoryBound(to: Float.self))
    }

    /// The inverse: `count` frames back into `channels[0 ..< 16]` from `offset`.
    @_semantics("no_performance_analysis") @inline(__always)
    static func scatter(_ frames: UnsafePointer<SIMD16<Float>>, into channels: UnsafePointer<UnsafeMutablePointer<Float>?>,
                        offset: Int, count: Int) {
        crosspoint_channels_from_frames16(UnsafeRawPointer(frames).assumingMemoryBound(to: Float.self), channels,
                                          offset, count)
    }
}
#endif
