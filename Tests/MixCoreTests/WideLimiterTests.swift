#if arch(x86_64)
import Dynamics
import Foundation
import MixCore
import StagePathAVX2
import StagePathAVX512
import SystemSupport
import Testing

/// On AVX-512 the two groups of a pair of rings limit as one of sixteen
/// lanes when their rings stand at the same place with one lookahead
/// (StagePaths/Loops/Limiters+Wide.swift). Every lane does the eight-lane
/// step's arithmetic in its order, so the AVX-512 build gives, to the bit,
/// what the AVX2 build's eight-lane loop gives.
@Suite struct WideLimiterTests {
    /// Outputs 37: groups 0 and 1 a pair; 2 and 3 not (their lookaheads
    /// differ), and at period 26 the rate changes as group 3 goes off (it
    /// comes back at 27); group 4, five outputs, alone. Outputs 29: groups 2
    /// and 3 a pair whose second group has five outputs, and groups 0 and 1
    /// a pair with no lookahead (the delayed sample read from the slot just
    /// written).
    @Test(arguments: [(100, 37), (64, 37), (13, 37), (64, 29)])
    func pairsAreTheEightLaneLoopToTheBit(shape: (frames: Int, outputs: Int)) {
        let (frames, outputs) = shape
        guard SIMDPath.available.contains(.avx512) else {
            print("WideLimiterTests: this CPU has no AVX-512; the sixteen-lane loop is not run")
            return
        }
        let periods = max(40, 2_400 / frames) // round the rings (962 slots) twice at least
        var random = SplitMix(seed: UInt64(frames * 1_000 + outputs))
        // Noise up to +12 dBFS with impulses and samples that are not numbers.
        let signal = (0..<outputs).map { m in
            (0..<(frames * periods)).map { k -> Float in
                if k % 997 == m { return .nan }
                if k % 1_409 == m { return .infinity }
                if k % 211 == 0 { return 4 }
                return Float.random(in: -4...4, using: &random) * (k / 300 % 2 == 0 ? 1 : 0.05)
            }
        }
        var on = [Float](repeating: 1, count: 40)
        var rate: Float = 48_000
        let ceiling = (0..<40).map { _ in Float.random(in: 0.1...0.9, using: &random) }
        let release = (0..<40).map { _ in Float.random(in: 5...200, using: &random) }
        let lookahead = (0..<40).map { m -> Float in m / 8 == 2 && outputs > 32 ? 2 : m < 16 && outputs == 29 ? 0 : 1 }
        let linked = (0..<40).map { m -> Int32 in m % 8 < 2 ? 1 : 0 }
        func record(_ limit: (inout Limiters, UnsafePointer<UnsafeMutablePointer<Float>>, UnsafePointer<Float>) -> Void)
            -> (output: [[Float]], lowest: [[Float]]) {
            var stage = Limiters(outputs: outputs)
            let buffers = (0..<outputs).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: frames) }
            defer { buffers.forEach { $0.deallocate() } }
            var (recorded, lowest) = ([[Float]](repeating: [], count: outputs), [[Float]]())
            for period in 0..<periods {
                // Group 1 fades half out and back in (the pair still goes
                // together), then goes off and comes back later (its rings
                // start again: the two groups go alone from then on).
                for m in 8..<16 { on[m] = [5: 0.5, 6: 0.5, 20: 0, 21: 0, 22: 0][period] ?? 1 }
                for m in 24..<32 { on[m] = period == 26 ? 0 : 1 }
                rate = period < 26 ? 48_000 : 44_100
                for m in 0..<outputs {
                    buffers[m].update(from: Array(signal[m][(period * frames)..<((period + 1) * frames)]), count: frames)
                }
                buffers.withUnsafeBufferPointer { b in on.withUnsafeBufferPointer { limit(&stage, b.baseAddress!, $0.baseAddress!) } }
                for m in 0..<outputs { recorded[m] += Array(UnsafeBufferPointer(start: buffers[m], count: frames)) }
                lowest.append(Array(UnsafeBufferPointer(start: stage.lowest, count: outputs)))
                for m in 0..<outputs { stage.lowest[m] = 1 }
            }
            return (recorded, lowest)
        }
        func values(_ body: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>,
                             UnsafePointer<Int32>) -> Void) {
            ceiling.withUnsafeBufferPointer { c in release.withUnsafeBufferPointer { r in
                lookahead.withUnsafeBufferPointer { l in linked.withUnsafeBufferPointer { body(c.baseAddress!, r.baseAddress!, l.baseAddress!, $0.baseAddress!) } }
            } }
        }
        let eight = record { stage, output, on in
            values { StagePathAVX2.StagePath.limit(&stage, output, count: outputs, frames: frames, on: on, ceiling: $0,
                                                   release: $1, lookahead: $2, linked: $3, sampleRate: rate) }
        }
        let sixteen = record { stage, output, on in
            values { StagePathAVX512.StagePath.limit(&stage, output, count: outputs, frames: frames, on: on, ceiling: $0,
                                                     release: $1, lookahead: $2, linked: $3, sampleRate: rate) }
        }
        var differing = 0
        for m in 0..<outputs {
            for k in eight.output[m].indices where eight.output[m][k].bitPattern != sixteen.output[m][k].bitPattern {
                differing += 1
            }
        }
        #expect(differing == 0, "\(differing) samples differ between the eight-lane and sixteen-lane loops")
        #expect(eight.lowest == sixteen.lowest)
        // The limiters limited, and nothing passed a ceiling where a
        // limiter was on all along (groups 1 and 3 go off: their input comes through).
        #expect(sixteen.lowest.joined().contains { $0 < 0.5 })
        for m in 0..<outputs where m / 8 != 1 && m / 8 != 3 {
            #expect(sixteen.output[m].allSatisfy { $0.isFinite && abs($0) <= ceiling[m] })
        }
    }
}
#endif
