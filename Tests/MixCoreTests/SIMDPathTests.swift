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
        let catalogue = Catalogue()
        var recordings: [(SIMDPath, [[Float]])] = []
        for simd in SIMDPath.available {
            let rig = OfflineRig(inputs: inputs, outputs: outputs, frames: frames, panLaw: .constantPower,
                                 scene: first, simd: simd)
            for n in 0..<inputs { rig.signals[n] = { t in signals[n][t % 4096] } }
            rig.render(periods: 20)
            let layout = rig.mixer.rampLayout
            rig.submit(catalogue.changes(toReach: second, in: layout, seconds: 0.05))
            rig.render(periods: 60)
            recordings.append((simd, rig.recorded))
        }
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
}
