import Catalogue
import Foundation
import SceneModel
import SystemSupport
import Testing
@testable import MixCore

/// A source's samples that are not numbers (a careless JACK client's), with
/// its EQ running: each is one silent sample, as the mix takes it where no
/// EQ runs, and not a filter state that is not a number to the end of the
/// block, which the mix would turn into silence on every output the source
/// feeds (`Equalisers.cleansing`).
@Suite struct SourceEQInputTests {
    @Test(arguments: [64, 100])
    func aSampleThatIsNotANumberIsOneSilentSample(frames: Int) {
        let (inputs, outputs) = (20, 4)
        var scene = Scene(inputs: inputs, outputs: outputs)
        for n in 0..<inputs {
            // The first group's low cuts on, the second's off (on AVX-512 a
            // pair whose cut sections pass in one group), every band on.
            scene.sources[n].eq.lowCut.on = n < 8
            scene.sources[n].eq.lowCut.frequency = 100
            scene.sources[n].eq.bands = scene.sources[n].eq.bands.indices.map { b in
                var band = EQBand(type: .peak, frequency: Float(200 << b))
                (band.gain, band.q, band.on) = (6, 1, true)
                return band
            }
            for m in 1...outputs { scene.crosspoints[n + 1, m] = 0.2 }
        }
        var random = SplitMix(seed: 7)
        let clean = (0..<inputs).map { _ in (0..<4096).map { _ in Float.random(in: -1...1, using: &random) } }
        var (bad, zeroed) = (clean, clean)
        for (n, t, value) in [(2, 70, Float.nan), (11, 200, .infinity), (17, 333, -.infinity), (5, 640, .nan)] {
            (bad[n][t], zeroed[n][t]) = (value, 0)
        }
        func record(_ signals: [[Float]]) -> [(SIMDPath, [[Float]])] {
            SIMDPathTests.recordings(scene, then: scene, signals: signals, outputs: outputs, frames: frames,
                                     panLaw: .balance, periods: (12, 0), fade: 0)
        }
        let (withBad, withZeros) = (record(bad), record(zeroed))
        for ((simd, recorded), (_, expected)) in zip(withBad, withZeros) {
            var differing = 0
            for m in 0..<outputs {
                for k in expected[m].indices where recorded[m][k].bitPattern != expected[m][k].bitPattern {
                    differing += 1
                }
            }
            #expect(differing == 0, "\(simd): \(differing) samples differ from the same input with zeros")
        }
        #expect(withZeros.first?.1.contains { $0.contains { abs($0) > 0.01 } } == true)
    }
}
