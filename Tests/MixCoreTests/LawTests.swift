import Catalogue
import Foundation
import SystemSupport
import Testing
@testable import MixCore
import SceneModel

@Suite struct FaderLawTests {
    @Test func segmentsMatchTheConsoleLaw() {
        #expect(FaderLaw.decibels(position: 1.0) == 10)
        #expect(FaderLaw.decibels(position: 0.75) == 0)
        #expect(FaderLaw.decibels(position: 0.5) == -10)
        #expect(FaderLaw.decibels(position: 0.25) == -30)
        #expect(FaderLaw.decibels(position: 0.0625) == -60)
        #expect(FaderLaw.decibels(position: 0) == -90)
        #expect(FaderLaw.gain(position: 0) == 0)
    }

    @Test func positionInvertsTheLaw() {
        for db in stride(from: Float(-89.5), through: 12, by: 0.5) {
            let back = FaderLaw.decibels(position: FaderLaw.position(decibels: db))
            #expect(abs(back - db) < 1e-4, "dB \(db)")
        }
        #expect(FaderLaw.position(gain: 0) == 0)
        #expect(abs(FaderLaw.position(gain: 4) - 1.0505) < 1e-3)
    }

    @Test func gainAtAPositionMatchesLibm() {
        for step in 1...1050 {
            let f = Float(step) / 1000
            let expected = powf(10, FaderLaw.decibels(position: f) / 20)
            #expect(abs(FaderLaw.gain(position: f) - expected) <= expected * 1e-5, "f \(f)") // 0.0001 dB
        }
    }

    /// The 8-lane law the kernel's level ramps run gives the same bits as
    /// the scalar one the control side uses, over the whole travel and past it.
    @Test func vectorLawMatchesScalar() {
        var f: Float = 0
        while f <= 1.06 {
            let lanes = SIMD8<Float>((0..<8).map { f + Float($0) * 0.000_37 })
            let vector = FaderLaw.gain(positions: lanes)
            for lane in 0..<8 { #expect(vector[lane] == FaderLaw.gain(position: lanes[lane]), "f \(lanes[lane])") }
            f += 0.006
        }
    }

    /// The slope the kernel multiplies a ramp's step by is the slope of the
    /// scalar law's segment at that position.
    @Test func vectorSlopeIsTheScalarLawsSlope() {
        let h: Float = 1.0 / 4096
        for step in 0..<1050 {
            // A point and a neighbour inside the same segment (segment ends are multiples of 1/16).
            let f = Float(step) / 1000
            let (low, high) = (f.truncatingRemainder(dividingBy: 0.0625) < 0.03 ? (f, f + h) : (f - h, f))
            let slope = (FaderLaw.decibels(position: high) - FaderLaw.decibels(position: low)) / h
            let vector = FaderLaw.decibelsPerPosition(SIMD8(repeating: f))
            #expect(abs(vector[0] - slope) <= slope * 1e-3, "f \(f): \(vector[0]) against \(slope)")
        }
    }
}

@Suite struct FastMathTests {
    @Test func exp2AndSineApproximations() {
        for x in stride(from: Float(-30), through: 30, by: 0.037) {
            #expect(abs(FastMath.exp2(x) - exp2f(x)) <= exp2f(x) * 3e-7)
        }
        for x in stride(from: Float(0), through: .pi / 2, by: 0.001) {
            #expect(abs(FastMath.sinQuadrant(x) - sinf(x)) < 2e-7)
        }
    }

    /// The 8-lane exp2 gives the same bits as the scalar one, clamps included.
    @Test func vectorExp2MatchesScalar() {
        var x: Float = -140
        while x <= 140 {
            let lanes = SIMD8<Float>((0..<8).map { x + Float($0) * 0.013 })
            let vector = FastMath.exp2(lanes)
            for lane in 0..<8 { #expect(vector[lane] == FastMath.exp2(lanes[lane]), "x \(lanes[lane])") }
            x += 0.29
        }
    }
}

@Suite struct PanLawTests {
    @Test func balanceLeavesCentreBitExact() {
        #expect(PanLaw.balance.gains(pan: 0) == (1, 1))
        #expect(PanLaw.balance.gains(pan: -1) == (1, 0))
        #expect(PanLaw.balance.gains(pan: 0.5) == (0.5, 1))
    }

    @Test func constantPowerKeepsPowerAndIsMinus3dBAtCentre() {
        for p in stride(from: Float(-1), through: 1, by: 0.01) {
            let (l, r) = PanLaw.constantPower.gains(pan: p)
            #expect(abs(l * l + r * r - 1) < 1e-6)
            let theta = (p + 1) * .pi / 4
            #expect(abs(l - cosf(theta)) < 1e-6 && abs(r - sinf(theta)) < 1e-6)
        }
        let (l, r) = PanLaw.constantPower.gains(pan: 0)
        #expect(abs(20 * log10f(l) + 3.0103) < 0.001 && abs(l - r) < 1e-7)
        #expect(PanLaw.constantPower.gains(pan: 1).left < 1e-7)
    }

    @Test func linearIsMinus6dBAtCentre() {
        #expect(PanLaw.linear.gains(pan: 0) == (0.5, 0.5))
        #expect(PanLaw.linear.gains(pan: 1) == (0, 1))
        #expect(PanLaw.linear.gains(pan: -0.5) == (0.75, 0.25))
    }

    @Test func outputLayoutPairsAndMonos() {
        let layout = OutputLayout(outputs: 7, monoOutputs: [3])
        #expect(layout.sides == [.left, .right, .mono, .mono, .left, .right, .mono])
    }
}

/// DCAs multiply (in dB, add) up to +12 dB: two at +12 give +12, not the
/// +12.04 of linear 4 (issue 34).
@Suite struct DCASumTests {
    @Test func theSumStopsAtTwelveDecibels() {
        #expect(abs(Scene.dcaCeiling - FaderLaw.gain(decibels: 12)) < 1e-6)
        var scene = Scene(inputs: 2, outputs: 1, dcas: 2, muteGroups: 0)
        scene.sources[0].dcas.set(1, true)
        scene.sources[0].dcas.set(2, true)
        scene.dcas[0].volume = FaderLaw.gain(decibels: 12)
        scene.dcas[1].volume = FaderLaw.gain(decibels: 12)
        #expect(abs(FaderLaw.decibels(gain: scene.dcaGain(1)) - 12) < 1e-4, "\(FaderLaw.decibels(gain: scene.dcaGain(1)))")
        scene.dcas[1].volume = FaderLaw.gain(decibels: -6)
        #expect(abs(FaderLaw.decibels(gain: scene.dcaGain(1)) - 6) < 1e-4, "below the top, the sum")
        #expect(scene.dcaGain(2) == 1, "not a member")
    }
}

/// The source fold sixteen lanes at a time (`foldSources`, on each SIMD
/// path this CPU runs) against the plain one, source by source
/// (`foldSource`): the same bits for every source, with every pan law,
/// pans past the ends, pairs linked, unlinked and part way, and the gates
/// and polarity in the product.
@Suite struct SourceFoldTests {
    @Test(arguments: PanLaw.allCases, SIMDPath.available)
    func sixteenSourcesAtATimeFoldAsOneByOne(law: PanLaw, simd: SIMDPath) {
        let inputs = 37
        let ramps = Catalogue().rampLayout(inputs: inputs, outputs: 4)
        var random = SplitMix(seed: 11)
        var changes: [Change] = []
        func set(_ role: RampBlock.Role, _ value: (Int) -> Float) {
            for base in ramps.bases(.source, role) {
                for n in 0..<inputs { changes.append(linear(base + n, value(n))) }
            }
        }
        set(.gain) { _ in Float.random(in: 0...2, using: &random) }
        set(.gate) { _ in Float.random(in: 0...1, using: &random) }
        set(.polarity) { _ in Float.random(in: -1...1, using: &random) }
        set(.pan) { _ in Float.random(in: -1.5...1.5, using: &random) }
        set(.link) { n in [0, 1, Float.random(in: 0...1, using: &random)][n % 3] }
        var kernel = RenderKernel(ramps: ramps, initial: changes, panLaw: law, layout: OutputLayout(outputs: 4), simd: simd)
        let stride = ramps.inputStride
        func folded() -> [[UInt32]] {
            [kernel.sourceMono, kernel.sourceMeter, kernel.sourceLeft, kernel.sourceRight].map { array in
                (0..<inputs).map { array[$0].bitPattern }
            }
        }
        for chunk in 0..<(stride / RampLayout.lanes) { kernel.foldSources(chunk: chunk) }
        let together = folded()
        for n in 0..<inputs { kernel.foldSource(n) }
        let alone = folded()
        #expect(together == alone)
        #expect(alone[2].contains { $0 != Float(1).bitPattern }, "pans moved the sides: the comparison compared something")
    }
}
