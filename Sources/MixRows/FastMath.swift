/// Transcendental functions the audio thread needs, in pure Swift.
///
/// `@_noLocks` code may not call C, so libm's `exp2f` and `sinf` are out of
/// reach of the render kernel. These approximations are accurate to a few
/// parts in 10⁷ over the ranges the mixer uses, far below audibility.
public enum FastMath {
    /// 2^x for x in about -126…126.
    ///
    /// Splits x into the nearest integer, which goes straight into the
    /// float's exponent bits, and a remainder f in [−½, ½], for which 2^f is
    /// the Taylor series of e^(f·ln2) to degree 7 (error below 10⁻⁸ there).
    /// The rounding adds and subtracts 1.5·2²³: the sum has no fraction bits
    /// left, and its low mantissa bits are the integer itself. The render
    /// kernel runs the same arithmetic on 8 lanes at once
    /// (`exp2(_: SIMD8<Float>)` below), so both give the same bits.
    @inlinable @_noLocks
    public static func exp2(_ x: Float) -> Float {
        let clamped = min(max(x, -126), 126)
        let shifted = clamped + roundingMagic
        let whole = shifted - roundingMagic
        let t = (clamped - whole) * 0.693_147_18 // f·ln2
        // Horner's scheme, each step a multiplication and an addition: MixCore
        // is built for the baseline CPU (SSE2 on x86-64), where a fused
        // multiply-add is a call to the C library's `fmaf`, and every CPU
        // then computes the same gains, bit for bit.
        var p: Float = 1.0 / 5040
        p = p * t + 1.0 / 720
        p = p * t + 1.0 / 120
        p = p * t + 1.0 / 24
        p = p * t + 1.0 / 6
        p = p * t + 0.5
        p = p * t + 1
        p = p * t + 1
        let exponent = Int32(bitPattern: shifted.bitPattern) &- roundingMagicBits &+ 127
        return p * Float(bitPattern: UInt32(bitPattern: exponent) << 23)
    }

    /// 2^x on 8 lanes: the scalar `exp2`'s arithmetic lane by lane, so
    /// both give the same bits (`FastMathTests` holds them equal).
    @inlinable @inline(__always) @_noLocks
    public static func exp2(_ x: SIMD8<Float>) -> SIMD8<Float> {
        typealias V = SIMD8<Float>
        typealias I = SIMD8<Int32>
        var clamped = x.replacing(with: V(repeating: -126), where: x .< V(repeating: -126))
        clamped.replace(with: V(repeating: 126), where: clamped .> V(repeating: 126))
        let magic = V(repeating: 12_582_912) // 1.5·2²³, `roundingMagic`
        let shifted = clamped + magic
        let whole = shifted - magic
        let t = (clamped - whole) * V(repeating: 0.693_147_18)
        var p = V(repeating: 1.0 / 5040)
        p = p * t + V(repeating: 1.0 / 720)
        p = p * t + V(repeating: 1.0 / 120)
        p = p * t + V(repeating: 1.0 / 24)
        p = p * t + V(repeating: 1.0 / 6)
        p = p * t + V(repeating: 0.5)
        p = p * t + V(repeating: 1)
        p = p * t + V(repeating: 1)
        let exponent = unsafeBitCast(shifted, to: I.self) &- I(repeating: 0x4B40_0000) &+ I(repeating: 127)
        return p * unsafeBitCast(exponent &<< 23, to: V.self)
    }

    /// 1.5·2²³, and its bit pattern: x + 1.5·2²³ rounds x to an integer.
    @inlinable public static var roundingMagic: Float { 12_582_912 }
    @inlinable public static var roundingMagicBits: Int32 { 0x4B40_0000 }

    /// sin(x) for x in [0, π/2], as an odd Taylor polynomial to x¹¹
    /// (error below 6·10⁻⁸ on that range).
    @inlinable @_noLocks
    public static func sinQuadrant(_ x: Float) -> Float {
        let x2 = x * x
        var p: Float = -1.0 / 39_916_800
        p = p * x2 + 1.0 / 362_880
        p = p * x2 - 1.0 / 5040
        p = p * x2 + 1.0 / 120
        p = p * x2 - 1.0 / 6
        p = p * x2 + 1
        return p * x
    }

    /// `sinQuadrant` on sixteen lanes: the same operations in the same
    /// order, so each lane gives the scalar's bits.
    @inlinable @inline(__always) @_noLocks
    public static func sinQuadrant(_ x: SIMD16<Float>) -> SIMD16<Float> {
        let x2 = x * x
        var p = SIMD16<Float>(repeating: -1.0 / 39_916_800)
        p = p * x2 + SIMD16(repeating: 1.0 / 362_880)
        p = p * x2 - SIMD16(repeating: 1.0 / 5040)
        p = p * x2 + SIMD16(repeating: 1.0 / 120)
        p = p * x2 - SIMD16(repeating: 1.0 / 6)
        p = p * x2 + SIMD16(repeating: 1)
        return p * x
    }
}
