import Catalogue
import Foundation
import SceneModel
import SystemSupport
import Testing
@testable import MixCore

/// A source's samples that are not numbers, or too large to filter (a
/// careless JACK client's), with its EQ running: each is one silent sample
/// of that source, and not a filter state that is not a number to the end
/// of the block, which the mix would turn into silence on every output the
/// source feeds (`Equalisers.cleansing`).
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
        // Then one band of every source moves: its sections run moving
        // (not fresh) in the period after the change.
        var moved = scene
        for n in 0..<inputs { moved.sources[n].eq.bands[1].gain = -9 }
        var random = SplitMix(seed: 7)
        let clean = (0..<inputs).map { _ in (0..<4096).map { _ in Float.random(in: -1...1, using: &random) } }
        var (bad, zeroed) = (clean, clean)
        // Still blocks; at 100 frames a period, frame 80 of the second period
        // (the block after the first 64); the period in which the band moves;
        // and a finite sample too large for a boost to keep finite.
        let samples: [(Int, Int, Float)] = [(2, 70, .nan), (11, 180, .infinity), (17, 333, -.infinity),
                                             (5, 6 * frames + 10, .nan), (13, 6 * frames + 40, 3e38),
                                             (9, 640, -1e35)]
        for (n, t, value) in samples { (bad[n][t], zeroed[n][t]) = (value, 0) }
        func record(_ signals: [[Float]]) -> [(SIMDPath, [[Float]])] {
            SIMDPathTests.recordings(scene, then: moved, signals: signals, outputs: outputs, frames: frames,
                                     panLaw: .balance, periods: (6, 6), fade: 0)
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
