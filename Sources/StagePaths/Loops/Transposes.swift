#if FUSED_MULTIPLY_ADD
import CFrames
#endif

/// Audio thread: eight or sixteen channels' runs of samples as frames (a
/// vector of one sample of each channel) and back, for the EQ's and the
/// limiters' loops, which run across channels, a lane each.
///
/// On the avx2 and avx512 paths these are C (`CFrames`, frames.c), with
/// the CPU's shuffles: written in Swift (`transposed`), the compiler
/// merged the three stages of shuffles into shuffles of more than two
/// vectors and built those from inserts, broadcasts and blends, about
/// twice the instructions. The `@_noLocks` checker cannot see into C, so
/// the calls are left out of it (`no_performance_analysis`); what they
/// call loads, shuffles and stores, and `PerformanceAllocationTests` counts
/// allocations and locks in the process callback on every path with the
/// EQ and the limiters running. The base path (SSE2, NEON) keeps `transposed`.
enum Transposes {
    /// Frames `offset` ..< `offset + count` of `channels[0 ..< lanes]` into
    /// `frames`, a frame (channel 0 in lane 0) after another: `lanes` is 8,
    /// or 16 on the avx512 path (frames of `SIMD8` or `SIMD16` floats).
    #if FUSED_MULTIPLY_ADD
    @_semantics("no_performance_analysis") @inline(__always)
    static func gather(_ channels: UnsafePointer<UnsafeMutablePointer<Float>?>, lanes: Int, offset: Int, count: Int,
                       into frames: UnsafeMutableRawPointer) {
        crosspoint_frames_from_channels(channels, Int32(truncatingIfNeeded: lanes), offset, count,
                                        frames.assumingMemoryBound(to: Float.self))
    }

    /// The inverse: `count` frames back into `channels[0 ..< lanes]` from `offset`.
    @_semantics("no_performance_analysis") @inline(__always)
    static func scatter(_ frames: UnsafeRawPointer, lanes: Int, into channels: UnsafePointer<UnsafeMutablePointer<Float>?>,
                        offset: Int, count: Int) {
        crosspoint_channels_from_frames(frames.assumingMemoryBound(to: Float.self), channels,
                                        Int32(truncatingIfNeeded: lanes), offset, count)
    }
    #else
    // Eight lanes only (no path without FUSED_MULTIPLY_ADD has sixteen).
    // Out of line: a call per block of frames.
    @inline(never) @_noLocks
    static func gather(_ channels: UnsafePointer<UnsafeMutablePointer<Float>?>, lanes: Int, offset: Int, count: Int,
                       into frames: UnsafeMutableRawPointer) {
        typealias V = SIMD8<Float>
        let frames = frames.assumingMemoryBound(to: V.self)
        let (i0, i1, i2, i3, i4, i5, i6, i7) = eight(channels)
        var k = 0
        while k &+ 8 <= count {
            let at = MemoryLayout<Float>.stride &* (offset &+ k)
            let f = transposed((UnsafeRawPointer(i0).loadUnaligned(fromByteOffset: at, as: V.self),
                                UnsafeRawPointer(i1).loadUnaligned(fromByteOffset: at, as: V.self),
                                UnsafeRawPointer(i2).loadUnaligned(fromByteOffset: at, as: V.self),
                                UnsafeRawPointer(i3).loadUnaligned(fromByteOffset: at, as: V.self),
                                UnsafeRawPointer(i4).loadUnaligned(fromByteOffset: at, as: V.self),
                                UnsafeRawPointer(i5).loadUnaligned(fromByteOffset: at, as: V.self),
                                UnsafeRawPointer(i6).loadUnaligned(fromByteOffset: at, as: V.self),
                                UnsafeRawPointer(i7).loadUnaligned(fromByteOffset: at, as: V.self)))
            let to = frames + k
            (to[0], to[1], to[2], to[3], to[4], to[5], to[6], to[7]) = f
            k &+= 8
        }
        for k in k..<count {
            let at = offset &+ k
            frames[k] = V(i0[at], i1[at], i2[at], i3[at], i4[at], i5[at], i6[at], i7[at])
        }
    }

    @inline(never) @_noLocks
    static func scatter(_ frames: UnsafeRawPointer, lanes: Int, into channels: UnsafePointer<UnsafeMutablePointer<Float>?>,
                        offset: Int, count: Int) {
        typealias V = SIMD8<Float>
        let frames = frames.assumingMemoryBound(to: V.self)
        let (o0, o1, o2, o3, o4, o5, o6, o7) = eight(channels)
        var k = 0
        while k &+ 8 <= count {
            let from = frames + k
            let r = transposed((from[0], from[1], from[2], from[3], from[4], from[5], from[6], from[7]))
            let at = MemoryLayout<Float>.stride &* (offset &+ k)
            UnsafeMutableRawPointer(o0).storeBytes(of: r.0, toByteOffset: at, as: V.self)
            UnsafeMutableRawPointer(o1).storeBytes(of: r.1, toByteOffset: at, as: V.self)
            UnsafeMutableRawPointer(o2).storeBytes(of: r.2, toByteOffset: at, as: V.self)
            UnsafeMutableRawPointer(o3).storeBytes(of: r.3, toByteOffset: at, as: V.self)
            UnsafeMutableRawPointer(o4).storeBytes(of: r.4, toByteOffset: at, as: V.self)
            UnsafeMutableRawPointer(o5).storeBytes(of: r.5, toByteOffset: at, as: V.self)
            UnsafeMutableRawPointer(o6).storeBytes(of: r.6, toByteOffset: at, as: V.self)
            UnsafeMutableRawPointer(o7).storeBytes(of: r.7, toByteOffset: at, as: V.self)
            k &+= 8
        }
        for k in k..<count {
            let v = frames[k], at = offset &+ k
            (o0[at], o1[at], o2[at], o3[at]) = (v[0], v[1], v[2], v[3])
            (o4[at], o5[at], o6[at], o7[at]) = (v[4], v[5], v[6], v[7])
        }
    }

    /// The first eight channels, as locals.
    @inline(__always) @_noLocks
    static func eight(_ c: UnsafePointer<UnsafeMutablePointer<Float>?>) -> Channels {
        (c[0].unsafelyUnwrapped, c[1].unsafelyUnwrapped, c[2].unsafelyUnwrapped, c[3].unsafelyUnwrapped,
         c[4].unsafelyUnwrapped, c[5].unsafelyUnwrapped, c[6].unsafelyUnwrapped, c[7].unsafelyUnwrapped)
    }

    typealias Channels = (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>,
                          UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>,
                          UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)
    #endif
}
