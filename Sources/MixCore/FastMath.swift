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
    @inlinable @_noLocks
    public static func exp2(_ x: Float) -> Float {
        let clamped = min(max(x, -126), 126)
        var whole = Int32(clamped)               // truncates toward zero
        if Float(whole) > clamped { whole -= 1 } // floor for negatives
        var f = clamped - Float(whole)
        if f > 0.5 { f -= 1; whole += 1 }
        let t = f * 0.693_147_18                 // f·ln2
        var p: Float = 1.0 / 5040
        p = p * t + 1.0 / 720
        p = p * t + 1.0 / 120
        p = p * t + 1.0 / 24
        p = p * t + 1.0 / 6
        p = p * t + 0.5
        p = p * t + 1
        p = p * t + 1
        let scale = Float(bitPattern: UInt32(truncatingIfNeeded: whole + 127) << 23)
        return p * scale
    }

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
}
