/// Whether any lane of a comparison's mask is set, or every one: the
/// standard library's `any` and `all`, for the loops built once per CPU
/// level (MixPaths, StagePaths).
///
/// Theirs reduce through a generic `SIMD.min()` or `max()`, which the
/// optimiser may leave out of line as a specialization with shared linkage,
/// under one name in every module that needs it. Each per-CPU module then
/// carries its own copy, built for its CPU, and the linker keeps one: on a
/// CPU without AVX the base path's EQ called the AVX2 build's copy and the
/// rig stopped with SIGILL (found by `QemuCPUTests` with the EQ on). These
/// are transparent, always inlined into the caller and so built for its
/// CPU, and reduce with scalar operations only. `PathSymbolTests` checks
/// that no per-CPU module defines a shared symbol another one defines too.
@_transparent @_noLocks
public func anyLane(_ mask: SIMDMask<SIMD8<Int32>>) -> Bool {
    let m = mask._storage
    return (m[0] | m[1] | m[2] | m[3] | m[4] | m[5] | m[6] | m[7]) < 0
}

@_transparent @_noLocks
public func everyLane(_ mask: SIMDMask<SIMD8<Int32>>) -> Bool {
    let m = mask._storage
    return (m[0] & m[1] & m[2] & m[3] & m[4] & m[5] & m[6] & m[7]) < 0
}

@_transparent @_noLocks
public func anyLane(_ mask: SIMDMask<SIMD16<Int32>>) -> Bool {
    let m = mask._storage
    return (m[0] | m[1] | m[2] | m[3] | m[4] | m[5] | m[6] | m[7]
        | m[8] | m[9] | m[10] | m[11] | m[12] | m[13] | m[14] | m[15]) < 0
}
