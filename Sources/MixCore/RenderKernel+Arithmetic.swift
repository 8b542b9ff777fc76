/// Sanitising samples (NaN, infinities, denormals to 0), and the fader law
/// and exp2 on SIMD lanes: the same arithmetic as `FaderLaw` and `FastMath`,
/// held to them by `LawTests`.
extension RenderKernel {
    /// Zero for anything that is not a finite, normal-sized sample: NaN,
    /// infinities and denormals (and anything below 10⁻³⁰ or above 10³⁰).
    /// On the bits: |v| lies in [10⁻³⁰, 10³⁰] exactly when its bit pattern,
    /// shifted down by that of 10⁻³⁰, is at most the width of the range; the
    /// shift wraps everything below the range past the top, so one signed
    /// comparison decides.
    @inlinable @inline(__always) @_noLocks
    static func sanitized(_ v: SIMD16<Float>) -> SIMD16<Float> {
        typealias I = SIMD16<Int32>
        let bits = unsafeBitCast(v, to: I.self)
        let magnitude = bits & I(repeating: 0x7FFF_FFFF)
        let shifted = magnitude &+ I(repeating: sanitizeShift)
        let keep = shifted .<= I(repeating: sanitizeLimit)
        return unsafeBitCast(bits & I().replacing(with: I(repeating: -1), where: keep), to: SIMD16<Float>.self)
    }

    @inlinable @inline(__always) @_noLocks
    static func sanitized(_ s: Float) -> Float {
        let magnitude = s < 0 ? -s : s
        return magnitude >= 1e-30 && magnitude <= 1e30 ? s : 0
    }

    /// Int32.min − bits(10⁻³⁰), and Int32.min + bits(10³⁰) − bits(10⁻³⁰).
    @inlinable static var sanitizeShift: Int32 { Int32.min &- 0x0DA2_4260 }
    @inlinable static var sanitizeLimit: Int32 { Int32.min &+ (0x7149_F2CA &- 0x0DA2_4260) }

    /// The fader law and its exp2 on 8 positions at once; the same
    /// arithmetic as `FaderLaw.gain(position:)` and `FastMath.exp2`, lane by lane.
    @inlinable @inline(__always) @_noLocks
    static func faderGain(_ f: SIMD8<Float>) -> SIMD8<Float> {
        typealias V = SIMD8<Float>
        var db = V(repeating: 480) * f - V(repeating: 90)
        db.replace(with: V(repeating: 160) * f - V(repeating: 70), where: f .>= V(repeating: 0.0625))
        db.replace(with: V(repeating: 80) * f - V(repeating: 50), where: f .>= V(repeating: 0.25))
        db.replace(with: V(repeating: 40) * f - V(repeating: 30), where: f .>= V(repeating: 0.5))
        let gain = exp2(db * V(repeating: 0.166_096_4))
        return gain.replacing(with: V(), where: db .<= V(repeating: -90))
    }

    /// The slope of the fader law, dB per unit of position, at each position.
    @inlinable @inline(__always) @_noLocks
    static func decibelsPerPosition(_ f: SIMD8<Float>) -> SIMD8<Float> {
        typealias V = SIMD8<Float>
        var slope = V(repeating: 480)
        slope.replace(with: V(repeating: 160), where: f .>= V(repeating: 0.0625))
        slope.replace(with: V(repeating: 80), where: f .>= V(repeating: 0.25))
        slope.replace(with: V(repeating: 40), where: f .>= V(repeating: 0.5))
        return slope
    }

    /// 2^x on 8 lanes; see `FastMath.exp2`.
    @inlinable @inline(__always) @_noLocks
    static func exp2(_ x: SIMD8<Float>) -> SIMD8<Float> {
        typealias V = SIMD8<Float>
        typealias I = SIMD8<Int32>
        var clamped = x.replacing(with: V(repeating: -126), where: x .< V(repeating: -126))
        clamped.replace(with: V(repeating: 126), where: clamped .> V(repeating: 126))
        let magic = V(repeating: 12_582_912) // 1.5·2²³, as in FastMath
        let shifted = clamped + magic
        let whole = shifted - magic
        let t = (clamped - whole) * V(repeating: 0.693_147_18)
        var p = V(repeating: 1.0 / 5040)
        p = V(repeating: 1.0 / 720).addingProduct(p, t)
        p = V(repeating: 1.0 / 120).addingProduct(p, t)
        p = V(repeating: 1.0 / 24).addingProduct(p, t)
        p = V(repeating: 1.0 / 6).addingProduct(p, t)
        p = V(repeating: 0.5).addingProduct(p, t)
        p = V(repeating: 1).addingProduct(p, t)
        p = V(repeating: 1).addingProduct(p, t)
        let exponent = unsafeBitCast(shifted, to: I.self) &- I(repeating: 0x4B40_0000) &+ I(repeating: 127)
        return p * unsafeBitCast(exponent &<< 23, to: V.self)
    }
}
