#if arch(x86_64)
import Foundation
import MixCore
import Shaping
import StagePathAVX2
import StagePathAVX512
import Testing

/// On AVX-512 two groups of eight that both run still go through the EQ as
/// one of sixteen lanes (StagePaths/Loops/Equalisers+Wide.swift). Every
/// lane does the eight-lane loop's arithmetic in its order, so the AVX-512
/// build gives, to the bit, what the AVX2 build's eight-lane loop gives
/// (both fuse every multiply-add).
@Suite struct WideEqualiserTests {
    /// Channels in groups of eight, each group set up as `kinds` says:
    /// every section on; low cut off (its two sections pass in that group
    /// alone); flat (not run).
    enum Kind { case shaped, noLowCut, flat }

    @Test(arguments: [
        // A pair, a flat group, a group alone of one channel.
        (25, [Kind.shaped, .noLowCut, .flat, .shaped]),
        // A pair whose second group is one channel.
        (9, [Kind.noLowCut, .shaped]),
        // Two pairs, the second one-sided.
        (32, [Kind.shaped, .shaped, .noLowCut, .shaped]),
    ])
    func pairsAreTheEightLaneLoopToTheBit(shape: (channels: Int, kinds: [Kind])) {
        guard SIMDPath.available.contains(.avx512) else {
            print("WideEqualiserTests: this CPU has no AVX-512; the sixteen-lane loop is not run")
            return
        }
        let (channels, kinds) = (shape.channels, shape.kinds)
        let frames = 100 // a block of 64 and one of 36, which is not a multiple of eight
        let probe = Equalisers(channels: channels, bands: 6, highCut: true)
        let (parameters, width) = (probe.parameters, probe.channels)
        var random = SystemRandomNumberGenerator()
        // The kernel's values, parameter by parameter, a channel a lane.
        var values = [[Float]](repeating: [Float](repeating: 0, count: width), count: parameters)
        for n in 0..<channels {
            let kind = kinds[n / 8]
            guard kind != .flat else { continue }
            values[0][n] = 1 // the EQ on
            values[1][n] = kind == .shaped ? 1 : 0 // the low cut
            values[2][n] = log2(Float.random(in: 40...200, using: &random))
            values[3][n] = 24
            values[4][n] = 1 // the high cut
            values[5][n] = log2(Float.random(in: 4_000...16_000, using: &random))
            values[6][n] = n % 2 == 0 ? 24 : 12
            for b in 0..<6 {
                let p = 7 + b * 5
                values[p][n] = Float(b % 3) // peak, low shelf, high shelf
                values[p + 1][n] = log2(Float.random(in: 60...12_000, using: &random))
                values[p + 2][n] = Float.random(in: -15...15, using: &random)
                values[p + 3][n] = log2(Float.random(in: 0.3...8, using: &random))
                values[p + 4][n] = 1
            }
        }
        let signal = (0..<channels).map { _ in (0..<(frames * 12)).map { _ in Float.random(in: -1...1, using: &random) } }
        func record(_ equalise: (inout Equalisers, UnsafePointer<UnsafePointer<Float>>,
                                 UnsafePointer<UnsafeMutablePointer<Float>>, UnsafePointer<UnsafePointer<Float>>) -> Void)
            -> [[Float]] {
            var stage = Equalisers(channels: channels, bands: 6, highCut: true)
            let buffers = (0..<channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: frames) }
            let columns = values.map { column in
                let p = UnsafeMutablePointer<Float>.allocate(capacity: column.count)
                p.initialize(from: column, count: column.count)
                return p
            }
            defer {
                buffers.forEach { $0.deallocate() }
                columns.forEach { $0.deallocate() }
            }
            var recorded = [[Float]](repeating: [], count: channels)
            for period in 0..<12 {
                if period == 8 {
                    // The low cuts that were off come on: they start from
                    // silence, as the eight-lane loop starts them.
                    for n in 0..<channels where kinds[n / 8] == .noLowCut { columns[1][n] = 1 }
                }
                for n in 0..<channels {
                    buffers[n].update(from: Array(signal[n][(period * frames)..<((period + 1) * frames)]), count: frames)
                }
                // In place, as the output stage runs.
                let inputs = buffers.map { UnsafePointer($0) }
                inputs.withUnsafeBufferPointer { i in
                    buffers.withUnsafeBufferPointer { o in
                        columns.map { UnsafePointer($0) }.withUnsafeBufferPointer { v in
                            equalise(&stage, i.baseAddress!, o.baseAddress!, v.baseAddress!)
                        }
                    }
                }
                for n in 0..<channels { recorded[n] += Array(UnsafeBufferPointer(start: buffers[n], count: frames)) }
            }
            return recorded
        }
        let eight = record { stage, input, output, values in
            StagePathAVX2.StagePath.equalise(&stage, input, output, routes: nil, count: channels, frames: frames,
                                             values: values, sampleRate: 48_000, moved: true)
        }
        let sixteen = record { stage, input, output, values in
            StagePathAVX512.StagePath.equalise(&stage, input, output, routes: nil, count: channels, frames: frames,
                                               values: values, sampleRate: 48_000, moved: true)
        }
        var differing = 0
        for n in 0..<channels {
            for k in eight[n].indices where eight[n][k].bitPattern != sixteen[n][k].bitPattern { differing += 1 }
        }
        #expect(differing == 0, "\(differing) samples differ between the eight-lane and sixteen-lane loops")
        // The EQ did something, and a flat group was left as it came.
        #expect(zip(eight[0], signal[0]).contains { abs($0 - $1) > 0.01 })
        for n in 0..<channels where kinds[n / 8] == .flat {
            #expect(sixteen[n] == signal[n])
        }
    }
}
#endif
