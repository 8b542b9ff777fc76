import MixRows

/// Eight channels' state of one SVF section, one channel a lane: filtering
/// many channels at once is SIMD across channels, since each channel's
/// samples depend on the one before. Audio thread: no allocation, no locks.
public struct SVFLanes: Sendable {
    public var ic1 = SIMD8<Float>()
    public var ic2 = SIMD8<Float>()

    @inlinable public init() {}

    /// One sample of each lane through the section (`SVFCoefficients`).
    @inlinable @inline(__always) @_noLocks
    public mutating func process(_ v0: SIMD8<Float>, _ c: LaneCoefficients) -> SIMD8<Float> {
        let v3 = v0 - ic2
        let v1 = c.a1 * ic1 + c.a2 * v3
        let v2 = ic2 + c.a2 * ic1 + c.a3 * v3
        ic1 = 2 * v1 - ic1
        ic2 = 2 * v2 - ic2
        return c.m0 * v0 + c.m1 * v1 + c.m2 * v2
    }

    /// After a block: a state too small to hear is zero (a decaying filter
    /// would otherwise run on denormal numbers, tens of times slower), and a
    /// state that is not finite starts again from silence, so a NaN that got
    /// in never sticks.
    @_transparent @_noLocks
    public mutating func settle() {
        let tiny = SIMD8<Float>(repeating: 1e-20)
        ic1.replace(with: 0, where: ic1 .< tiny .& ic1 .> -tiny)
        ic2.replace(with: 0, where: ic2 .< tiny .& ic2 .> -tiny)
        let finite = (ic1 - ic1) .== 0 .& (ic2 - ic2) .== 0
        if !everyLane(finite) {
            ic1.replace(with: 0, where: .!finite)
            ic2.replace(with: 0, where: .!finite)
        }
    }
}

/// Eight lanes' coefficients of one SVF section (`SVFCoefficients`), and
/// their steps when they move across a block.
public struct LaneCoefficients: Sendable {
    public var a1, a2, a3, m0, m1, m2: SIMD8<Float>

    public init(_ lanes: [SVFCoefficients]) {
        func lane(_ value: (SVFCoefficients) -> Float) -> SIMD8<Float> {
            var v = SIMD8<Float>()
            for i in 0..<8 { v[i] = value(i < lanes.count ? lanes[i] : .through) }
            return v
        }
        (a1, a2, a3) = (lane(\.a1), lane(\.a2), lane(\.a3))
        (m0, m1, m2) = (lane(\.m0), lane(\.m1), lane(\.m2))
    }

    public init(repeating c: SVFCoefficients) {
        self.init([SVFCoefficients](repeating: c, count: 8))
    }

    @inlinable
    init(a1: SIMD8<Float>, a2: SIMD8<Float>, a3: SIMD8<Float>, m0: SIMD8<Float>, m1: SIMD8<Float>, m2: SIMD8<Float>) {
        (self.a1, self.a2, self.a3, self.m0, self.m1, self.m2) = (a1, a2, a3, m0, m1, m2)
    }

    /// The step that takes `self` to `target` in `count` equal steps.
    @inlinable @inline(__always) @_noLocks
    public func step(to target: LaneCoefficients, count: Int) -> LaneCoefficients {
        let s = SIMD8<Float>(repeating: 1 / Float(max(1, count)))
        return LaneCoefficients(a1: (target.a1 - a1) * s, a2: (target.a2 - a2) * s, a3: (target.a3 - a3) * s,
                                m0: (target.m0 - m0) * s, m1: (target.m1 - m1) * s, m2: (target.m2 - m2) * s)
    }

    @inlinable @inline(__always) @_noLocks
    public mutating func advance(by step: LaneCoefficients) {
        a1 += step.a1; a2 += step.a2; a3 += step.a3
        m0 += step.m0; m1 += step.m1; m2 += step.m2
    }
}
