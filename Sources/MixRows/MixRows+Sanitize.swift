/// Sanitising samples: NaN, infinities and denormals become 0 before they
/// reach an output port. Inlined into each SIMD path, so compiled at its width.
extension MixRows {
    /// Zero for anything that is not a finite, normal-sized sample: NaN,
    /// infinities and denormals (and anything below 10⁻³⁰ or above 10³⁰).
    /// On the bits: |v| lies in [10⁻³⁰, 10³⁰] exactly when its bit pattern,
    /// shifted down by that of 10⁻³⁰, is at most the width of the range; the
    /// shift wraps everything below the range past the top, so one signed
    /// comparison decides.
    @inlinable @inline(__always) @_noLocks
    public static func sanitized(_ v: SIMD16<Float>) -> SIMD16<Float> {
        typealias I = SIMD16<Int32>
        let bits = unsafeBitCast(v, to: I.self)
        let magnitude = bits & I(repeating: 0x7FFF_FFFF)
        let shifted = magnitude &+ I(repeating: sanitizeShift)
        let keep = shifted .<= I(repeating: sanitizeLimit)
        return unsafeBitCast(bits & I().replacing(with: I(repeating: -1), where: keep), to: SIMD16<Float>.self)
    }

    /// `sanitized(_:)` for eight lanes (the stages' groups of eight).
    @inlinable @inline(__always) @_noLocks
    public static func sanitized(_ v: SIMD8<Float>) -> SIMD8<Float> {
        typealias I = SIMD8<Int32>
        let bits = unsafeBitCast(v, to: I.self)
        let magnitude = bits & I(repeating: 0x7FFF_FFFF)
        let shifted = magnitude &+ I(repeating: sanitizeShift)
        let keep = shifted .<= I(repeating: sanitizeLimit)
        return unsafeBitCast(bits & I().replacing(with: I(repeating: -1), where: keep), to: SIMD8<Float>.self)
    }

    @inlinable @inline(__always) @_noLocks
    public static func sanitized(_ s: Float) -> Float {
        let magnitude = s < 0 ? -s : s
        return magnitude >= 1e-30 && magnitude <= 1e30 ? s : 0
    }

    /// Int32.min − bits(10⁻³⁰), and Int32.min + bits(10³⁰) − bits(10⁻³⁰).
    @inlinable public static var sanitizeShift: Int32 { Int32.min &- 0x0DA2_4260 }
    @inlinable public static var sanitizeLimit: Int32 { Int32.min &+ (0x7149_F2CA &- 0x0DA2_4260) }
}
