import Catalogue
import Foundation
import SystemSupport
import Testing
@testable import MixCore
import SceneModel

/// The SIMD paths (`SIMDPath`): which this CPU runs, how one is chosen, and
/// that each renders what the others do. `KernelReferenceTests` holds every
/// path to the plain model; here the stages that model leaves out, DCAs,
/// mute groups and delays, are held to the narrowest path.
@Suite struct SIMDPathTests {
    @Test func theBaselineIsAlwaysThereAndTheWidestIsChosen() {
        #expect(SIMDPath.available.first == .sse2 || SIMDPath.available == [.neon])
        #expect(SIMDPath.widest == SIMDPath.available.last)
        #expect((try? SIMDPath.choose(nil)) == SIMDPath.widest)
        #expect((try? SIMDPath.choose("")) == SIMDPath.widest)
        for path in SIMDPath.available { #expect((try? SIMDPath.choose(path.rawValue)) == path) }
    }

    /// A path the CPU lacks, or a name that is no path, is refused with the
    /// paths the CPU has: never chosen, so never run.
    @Test func aPathTheCPULacksIsRefused() {
        for path in SIMDPath.allCases where !SIMDPath.available.contains(path) {
            #expect(throws: SIMDPath.Refusal.self) { try SIMDPath.choose(path.rawValue) }
            let refusal = SIMDPath.Refusal(requested: path.rawValue)
            #expect(refusal.description.contains("cannot run the \(path) path"), "\(refusal)")
        }
        let unknown = SIMDPath.Refusal(requested: "sse9")
        #expect(unknown.description.contains("not a SIMD path (sse2|avx2|avx512|neon)"), "\(unknown)")
        #expect(throws: SIMDPath.Refusal.self) { try SIMDPath.choose("AVX2") }
    }

    /// DCAs, mute groups and output delays, a scene crossfading into another
    /// (every level, crosspoint, group and delay moving), dense and sparse
    /// rows: every path renders what the narrowest does within 10⁻⁶ of the
    /// level the inputs could reach.
    @Test(arguments: [(12, 8, 64, true), (9, 7, 100, false), (32, 18, 64, true)])
    func groupsAndDelaysRenderAlikeOnEveryPath(shape: (inputs: Int, outputs: Int, frames: Int, dense: Bool)) {
        let (inputs, outputs, frames) = (shape.inputs, shape.outputs, shape.frames)
        var random = SplitMix(seed: UInt64(inputs * 7919 + outputs * 31 + frames))
        func scene() -> Scene {
            var scene = Scene(inputs: inputs, outputs: outputs, dcas: 4, muteGroups: 3)
            for g in 0..<4 { scene.dcas[g].volume = Float.random(in: 0.1...1.5, using: &random) }
            scene.muteGroups[1].mute = true
            for n in 1...inputs {
                scene.sources[n - 1].dcas.insert(n % 4 + 1)
                if n % 3 == 0 { scene.sources[n - 1].muteGroups.insert(n % 3 + 1) }
                scene.sources[n - 1].pan = Float.random(in: -1...1, using: &random)
                for m in 1...outputs where shape.dense || Float.random(in: 0..<1, using: &random) < 0.3 {
                    scene.crosspoints[n, m] = Float.random(in: 0.05...2, using: &random)
                }
            }
            for m in 0..<outputs { scene.outputs[m].delay = Float(Int.random(in: 0...3, using: &random)) * 1.5 }
            return scene
        }
        let (first, second) = (scene(), scene())
        let signals = (0..<inputs).map { _ in (0..<4096).map { _ in Float.random(in: -1...1, using: &random) } }
        let recordings = Self.recordings(first, then: second, signals: signals, outputs: outputs, frames: frames,
                                         panLaw: .constantPower, periods: (20, 60), fade: 0.05)
        let (base, expected) = recordings[0]
        for (simd, recorded) in recordings.dropFirst() {
            var worst: Float = 0
            for m in 0..<outputs {
                #expect(recorded[m].count == expected[m].count)
                for k in recorded[m].indices {
                    let scale = signals.reduce(Float(1)) { $0 + abs($1[k % 4096]) } * 16
                    worst = max(worst, abs(recorded[m][k] - expected[m][k]) / scale)
                }
            }
            #expect(worst < 1e-6, "\(simd) against \(base): largest difference, relative to the input level: \(worst)")
        }
        // Not silence: the comparison compared something.
        #expect(expected.contains { $0.contains { abs($0) > 0.01 } })
    }

    /// The stages around the mix (`StagePath`): every source's EQ and every
    /// output's EQ and limiter on, at random settings, driven hard, then
    /// crossfaded to other settings (EQ moving, limiters switching) and
    /// settling again: every path renders what the narrowest does within
    /// 10⁻⁵ of the level the inputs could reach (measured on AVX2: 6·10⁻⁷).
    /// Wider paths run still sections with fused multiply-adds, a rounding
    /// fewer per step, and the filters' recursion carries the difference a
    /// little further than the mix's: the bound leaves room for that.
    @Test(arguments: [(12, 10, 64), (9, 7, 100)])
    func theStagesRenderAlikeOnEveryPath(shape: (inputs: Int, outputs: Int, frames: Int)) {
        let (inputs, outputs, frames) = (shape.inputs, shape.outputs, shape.frames)
        var random = SplitMix(seed: UInt64(inputs * 104_729 + outputs * 17 + frames))
        func band(_ bands: Int, _ b: Int) -> EQBand {
            let kinds: [EQBand.Kind] = [.peak, .lowShelf, .highShelf]
            var band = EQBand(type: kinds[Int.random(in: 0..<3, using: &random)],
                              frequency: Float(exp(Double.random(in: log(40)...log(15_000), using: &random))))
            (band.gain, band.q, band.on) = (Float.random(in: -15...15, using: &random),
                                            Float(exp(Double.random(in: log(0.3)...log(16), using: &random))), true)
            return band
        }
        func scene() -> Scene {
            var scene = Scene(inputs: inputs, outputs: outputs)
            for n in 0..<inputs {
                scene.sources[n].eq.lowCut.on = Bool.random(using: &random)
                scene.sources[n].eq.lowCut.frequency = Float.random(in: 30...300, using: &random)
                scene.sources[n].eq.bands = (0..<scene.sources[n].eq.bands.count).map { band(4, $0) }
                for m in 1...outputs { scene.crosspoints[n + 1, m] = Float.random(in: 0.05...0.5, using: &random) }
            }
            for m in 0..<outputs {
                scene.outputs[m].eq.lowCut.on = true
                scene.outputs[m].eq.highCut = { var c = Equaliser.Cut(frequency: Float.random(in: 2_000...18_000, using: &random))
                                                (c.on, c.slope) = (true, m % 2 == 0 ? 24 : 12); return c }()
                scene.outputs[m].eq.bands = (0..<scene.outputs[m].eq.bands.count).map { band(6, $0) }
                scene.outputs[m].limiter.on = m % 3 != 2
                scene.outputs[m].limiter.ceiling = -Float.random(in: 1...12, using: &random)
                scene.outputs[m].limiter.release = Float.random(in: 5...200, using: &random)
            }
            return scene
        }
        let (first, second) = (scene(), scene())
        let signals = (0..<inputs).map { _ in (0..<4096).map { _ in Float.random(in: -1...1, using: &random) } }
        let recordings = Self.recordings(first, then: second, signals: signals, outputs: outputs, frames: frames,
                                         panLaw: .balance, periods: (30, 60), fade: 0.03)
        let (base, expected) = recordings[0]
        let scale = Float(inputs) * 0.5 * 32 // the loudest the inputs could make a boosted output
        for (simd, recorded) in recordings.dropFirst() {
            var worst: Float = 0
            for m in 0..<outputs {
                #expect(recorded[m].count == expected[m].count)
                for k in recorded[m].indices { worst = max(worst, abs(recorded[m][k] - expected[m][k]) / scale) }
            }
            #expect(worst < 1e-5, "\(simd) against \(base): largest difference, relative to the input level: \(worst)")
        }
        #expect(expected.allSatisfy { $0.allSatisfy(\.isFinite) })
        #expect(expected.contains { $0.contains { abs($0) > 0.01 } })
    }

    /// AVX-512 runs two groups of eight that are both still as one of
    /// sixteen (StagePaths/Loops/Equalisers+Wide.swift). Settled scenes whose
    /// groups differ in what they run: a pair whose cut sections pass in one
    /// group only, a pair beside a flat group, a pair whose second group is
    /// half full, a group of one channel alone. Every path records the same
    /// as the narrowest, within 1e-5 of the loudest (3.4e-7 measured; the
    /// sixteen-lane loop against the eight-lane one to the bit:
    /// `WideEqualiserTests`).
    @Test(arguments: [(24, 20, 64), (17, 9, 100)])
    func groupsRunStillInPairsAsAlone(shape: (inputs: Int, outputs: Int, frames: Int)) {
        let (inputs, outputs, frames) = (shape.inputs, shape.outputs, shape.frames)
        var random = SplitMix(seed: UInt64(inputs * 7_919 + outputs))
        var scene = Scene(inputs: inputs, outputs: outputs)
        func bands(_ count: Int) -> [EQBand] {
            (0..<count).map { b in
                var band = EQBand(type: [.lowShelf, .peak, .peak, .highShelf, .peak, .peak][b],
                                  frequency: Float(exp(Double.random(in: log(60)...log(12_000), using: &random))))
                (band.gain, band.q, band.on) = (Float.random(in: -12...12, using: &random), 1.5, true)
                return band
            }
        }
        for n in 0..<inputs {
            // Group 1: low cuts on; group 2: off (its cut sections pass); group 3: flat.
            if n < 16 {
                scene.sources[n].eq.lowCut.on = n < 8
                scene.sources[n].eq.lowCut.frequency = 120
                scene.sources[n].eq.bands = bands(scene.sources[n].eq.bands.count)
            }
            for m in 1...outputs { scene.crosspoints[n + 1, m] = Float.random(in: 0.05...0.3, using: &random) }
        }
        for m in 8..<outputs {
            // Group 1 flat; the others shaped, the last perhaps one channel.
            scene.outputs[m].eq.highCut = { var c = Equaliser.Cut(frequency: 9_000); c.on = true; return c }()
            scene.outputs[m].eq.bands = bands(scene.outputs[m].eq.bands.count)
        }
        let signals = (0..<inputs).map { _ in (0..<4096).map { _ in Float.random(in: -1...1, using: &random) } }
        let recordings = Self.recordings(scene, then: scene, signals: signals, outputs: outputs, frames: frames,
                                         panLaw: .balance, periods: (40, 0), fade: 0)
        let (base, expected) = recordings[0]
        let loudest = expected.joined().map(abs).max() ?? 0
        #expect(loudest > 0.1)
        for (simd, recorded) in recordings.dropFirst() {
            var worst: Float = 0
            for m in 0..<outputs {
                for k in recorded[m].indices { worst = max(worst, abs(recorded[m][k] - expected[m][k]) / loudest) }
            }
            #expect(worst < 1e-5, "\(simd) against \(base): largest difference, relative to the loudest: \(worst)")
        }
    }

    /// What each path this CPU runs records: `signals` playing through
    /// `first` for `periods.0` periods, then a crossfade of `fade` seconds
    /// to `second` and `periods.1` periods more.
    static func recordings(_ first: Scene, then second: Scene, signals: [[Float]], outputs: Int, frames: Int,
                           panLaw: PanLaw, periods: (Int, Int), fade: Float) -> [(SIMDPath, [[Float]])] {
        let catalogue = Catalogue()
        return SIMDPath.available.map { simd in
            let rig = OfflineRig(inputs: signals.count, outputs: outputs, frames: frames, panLaw: panLaw,
                                 scene: first, simd: simd)
            for n in signals.indices { rig.signals[n] = { t in signals[n][t % signals[n].count] } }
            rig.render(periods: periods.0)
            rig.submit(catalogue.changes(toReach: second, in: rig.mixer.rampLayout, seconds: fade))
            rig.render(periods: periods.1)
            return (simd, rig.recorded)
        }
    }
}
