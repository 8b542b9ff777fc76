#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fader law of the big digital consoles: a fader position f in 0…1 maps
/// to dB in four straight segments, so the top of the travel (where an
/// engineer works) is fine-grained and the bottom falls quickly to silence.
///
///     f ≥ 0.5    : dB = 40f − 30      (0.75 → 0 dB, 1.0 → +10 dB)
///     f ≥ 0.25   : dB = 80f − 50      (0.5 → −10 dB)
///     f ≥ 0.0625 : dB = 160f − 70     (0.25 → −30 dB)
///     otherwise  : dB = 480f − 90     (0 → −90 dB = off)
///
/// Levels up to +12 dB (linear 4) continue the top segment past f = 1
/// (f = 1.05 is +12 dB), so every level the rig accepts has a position.
/// Fades move evenly in position, which is how a hand moves a fader.
public enum FaderLaw {
    /// The level at and below which a gain is silence.
    public static let floorDecibels: Float = -90
    /// The highest level the rig accepts: linear 4.
    public static let ceilingDecibels: Float = 20 * log10f(4)

    @inlinable @_noLocks
    public static func decibels(position f: Float) -> Float {
        let (low, middle, high) = joins
        if f >= high { return 40 * f - 30 }
        if f >= middle { return 80 * f - 50 }
        if f >= low { return 160 * f - 70 }
        return 480 * f - 90
    }

    /// The inverse of `decibels(position:)`; −90 dB and below is position 0.
    public static func position(decibels db: Float) -> Float {
        if db <= floorDecibels { return 0 }
        if db >= -10 { return (db + 30) / 40 }
        if db >= -30 { return (db + 50) / 80 }
        if db >= -60 { return (db + 70) / 160 }
        return (db + 90) / 480
    }

    /// Linear gain at a fader position; exactly 0 at the bottom of the travel.
    /// gain = 10^(dB/20) = 2^(dB · log2(10)/20).
    @inlinable @_noLocks
    public static func gain(position f: Float) -> Float {
        let db = decibels(position: f)
        if db <= floorDecibels { return 0 }
        return FastMath.exp2(db * 0.166_096_4)
    }

    public static func position(gain: Float) -> Float {
        position(decibels: decibels(gain: gain))
    }

    /// Linear gain to dB, −90 for silence.
    public static func decibels(gain: Float) -> Float {
        if gain <= 0 { return floorDecibels }
        return max(floorDecibels, 20 * log10f(gain))
    }

    /// dB to linear gain; −90 dB and below is exactly 0.
    public static func gain(decibels db: Float) -> Float {
        if db <= floorDecibels { return 0 }
        if db == 0 { return 1 }
        return powf(10, db / 20)
    }
}

/// The same law on 8 positions at once, for the render kernel's level ramps:
/// the arithmetic of `decibels(position:)` and `gain(position:)` lane by
/// lane, so both give the same bits (`FaderLawTests` holds them equal).
extension FaderLaw {
    @_transparent @_noLocks
    public static func gain(positions f: SIMD8<Float>) -> SIMD8<Float> {
        typealias V = SIMD8<Float>
        let (low, middle, high) = joins
        var db = V(repeating: 480) * f - V(repeating: 90)
        db.replace(with: V(repeating: 160) * f - V(repeating: 70), where: f .>= V(repeating: low))
        db.replace(with: V(repeating: 80) * f - V(repeating: 50), where: f .>= V(repeating: middle))
        db.replace(with: V(repeating: 40) * f - V(repeating: 30), where: f .>= V(repeating: high))
        let gain = FastMath.exp2(db * V(repeating: 0.166_096_4))
        return gain.replacing(with: V(), where: db .<= V(repeating: -90))
    }

    /// The slope of the law, dB per unit of position, at each position: the
    /// segment's factor in `decibels(position:)`.
    @_transparent @_noLocks
    public static func decibelsPerPosition(_ f: SIMD8<Float>) -> SIMD8<Float> {
        typealias V = SIMD8<Float>
        let (low, middle, high) = joins
        var slope = V(repeating: 480)
        slope.replace(with: V(repeating: 160), where: f .>= V(repeating: low))
        slope.replace(with: V(repeating: 80), where: f .>= V(repeating: middle))
        slope.replace(with: V(repeating: 40), where: f .>= V(repeating: high))
        return slope
    }

    /// Where the law's segments meet, bottom to top: the positions of
    /// −60, −30 and −10 dB (`decibels(position:)` and its vector forms, and
    /// the ramps' `boundary`, read them here).
    @inlinable
    public static var joins: (Float, Float, Float) { (0.0625, 0.25, 0.5) }
}
