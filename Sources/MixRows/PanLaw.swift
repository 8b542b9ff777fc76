/// How a source's pan position p (−1 left … 0 centre … +1 right) splits it
/// between the two outputs of a stereo pair.
public enum PanLaw: String, CaseIterable, Sendable {
    /// Balance control: the far side is attenuated, the near side is left
    /// alone. L = min(1, 1 − p), R = min(1, 1 + p). At centre both are 1, so
    /// pan 0 leaves the routing bit-exact.
    case balance
    /// Equal power: L = cos θ, R = sin θ with θ = (p + 1)·π/4. L² + R² = 1 at
    /// every position, so loudness stays constant; −3 dB each at centre.
    case constantPower = "constant-power"
    /// Equal amplitude: L = (1 − p)/2, R = (1 + p)/2. L + R = 1; −6 dB each at
    /// centre.
    case linear

    /// `gains(pan:)` for sixteen sources at once: the same operations in
    /// the same order, so each lane gives the scalar's bits (`LawTests`).
    @inlinable @inline(__always) @_noLocks
    public func gains(pan p: SIMD16<Float>) -> (left: SIMD16<Float>, right: SIMD16<Float>) {
        typealias V = SIMD16<Float>
        let one = V(repeating: 1)
        var p = p.replacing(with: -one, where: p .< -one)
        p.replace(with: one, where: p .> one)
        switch self {
        case .balance:
            let (l, r) = (one - p, one + p)
            return (l.replacing(with: one, where: l .> one), r.replacing(with: one, where: r .> one))
        case .constantPower:
            let theta = (p + one) * V(repeating: Float.pi / 4)
            return (FastMath.sinQuadrant(V(repeating: Float.pi / 2) - theta), FastMath.sinQuadrant(theta))
        case .linear:
            return ((one - p) * V(repeating: 0.5), (one + p) * V(repeating: 0.5))
        }
    }

    @inlinable @_noLocks
    public func gains(pan p: Float) -> (left: Float, right: Float) {
        let p = min(max(p, -1), 1)
        switch self {
        case .balance:
            return (min(1, 1 - p), min(1, 1 + p))
        case .constantPower:
            let theta = (p + 1) * (Float.pi / 4)
            // cos θ = sin(π/2 − θ); both arguments stay in [0, π/2].
            return (FastMath.sinQuadrant(Float.pi / 2 - theta), FastMath.sinQuadrant(theta))
        case .linear:
            return ((1 - p) * 0.5, (1 + p) * 0.5)
        }
    }
}
