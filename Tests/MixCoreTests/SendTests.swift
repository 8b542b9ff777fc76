import Foundation
import MixPathAVX2
import MixPathAVX512
import MixPathBase
import MixCore
import MixRows
import Testing

/// The sends of the stages after the mix (`MixRows.addSend`, `applyGain`,
/// `eachHeard`) held to their plain forms, sample for sample, on every
/// SIMD path this CPU has, at lengths that are and are not multiples of
/// sixteen; and what no input may do: leave a non-finite sample.
@Suite struct SendTests {
    /// The plain forms: one sample at a time.
    static func plainSend(_ input: [Float], into out: [Float], from start: Float, to end: Float, progress: [Float]) -> [Float] {
        out.indices.map { k in
            out[k] + MixRows.sanitized(input[k] * (start == end ? end : start + (end - start) * progress[k]))
        }
    }

    static func plainGain(_ out: [Float], from start: Float, to end: Float, progress: [Float]) -> [Float] {
        out.indices.map { k in MixRows.sanitized(out[k] * (start + (end - start) * progress[k])) }
    }

    typealias Send = (UnsafePointer<Float>, UnsafeMutablePointer<Float>, Float, Float, UnsafePointer<Float>, Int) -> Void
    typealias Gain = (UnsafeMutablePointer<Float>, Float, Float, UnsafePointer<Float>, Int) -> Void

    /// Each path's entry points, by name (`SIMDPath`).
    static func path(_ name: String) -> (send: Send, gain: Gain) {
        switch name {
        #if arch(x86_64)
        case "avx512": ({ MixPathAVX512.MixPath.send($0, into: $1, from: $2, to: $3, progress: $4, frames: $5) },
                        { MixPathAVX512.MixPath.gain($0, from: $1, to: $2, progress: $3, frames: $4) })
        case "avx2": ({ MixPathAVX2.MixPath.send($0, into: $1, from: $2, to: $3, progress: $4, frames: $5) },
                      { MixPathAVX2.MixPath.gain($0, from: $1, to: $2, progress: $3, frames: $4) })
        #endif
        default: ({ MixPathBase.MixPath.send($0, into: $1, from: $2, to: $3, progress: $4, frames: $5) },
                  { MixPathBase.MixPath.gain($0, from: $1, to: $2, progress: $3, frames: $4) })
        }
    }

    /// A signal with what an input may carry: ordinary samples, and NaN,
    /// infinities, denormals and huge values among them.
    static func signal(_ count: Int, seed: Int) -> [Float] {
        (0..<count).map { k in
            switch (k &* 7 &+ seed) % 23 {
            case 3: .nan
            case 7: .infinity
            case 11: -.infinity
            case 13: 1e-39
            case 17: 3e38
            default: Float(sin(Double(k + seed) * 0.37)) * 0.8
            }
        }
    }

    @Test(arguments: ["sse2", "neon", "avx2", "avx512"], [1, 15, 16, 17, 64, 100])
    func eachPathGivesThePlainFormSampleForSample(simd: String, frames: Int) {
        guard SIMDPath.available.map(\.rawValue).contains(simd) else { return }
        let (send, gain) = Self.path(simd)
        let input = Self.signal(frames, seed: 1)
        let start = (0..<frames).map { Float($0 % 5) * 0.1 }
        let progress = (0..<frames).map { Float($0 + 1) / Float(frames) }
        for (from, to) in [(Float(0.5), Float(0.5)), (0, 1), (1, 0.25), (0, 0)] {
            var out = start
            input.withUnsafeBufferPointer { i in
                progress.withUnsafeBufferPointer { p in
                    out.withUnsafeMutableBufferPointer { o in send(i.baseAddress!, o.baseAddress!, from, to, p.baseAddress!, frames) }
                }
            }
            let plain = Self.plainSend(input, into: start, from: from, to: to, progress: progress)
            #expect(out.map(\.bitPattern) == plain.map(\.bitPattern), "\(simd) send \(from)→\(to), \(frames) frames")
            #expect(out.allSatisfy { $0.isFinite })
            var scaled = Self.signal(frames, seed: 5)
            let before = scaled
            scaled.withUnsafeMutableBufferPointer { o in
                progress.withUnsafeBufferPointer { p in gain(o.baseAddress!, from, to, p.baseAddress!, frames) }
            }
            let plainScaled = Self.plainGain(before, from: from, to: to, progress: progress)
            #expect(scaled.map(\.bitPattern) == plainScaled.map(\.bitPattern), "\(simd) gain \(from)→\(to), \(frames) frames")
            #expect(scaled.allSatisfy { $0.isFinite })
        }
    }

    /// `eachHeard` visits exactly the channels whose send was or is not 0,
    /// in order, wherever they fall among the chunks of sixteen.
    @Test(arguments: [0, 5, 16, 33, 256])
    func eachHeardVisitsExactlyTheSendsThatWereOrAreHeard(count: Int) {
        var last = [Float](repeating: 0, count: count), now = last
        for c in stride(from: 3, to: count, by: 11) { last[c] = 0.5 }
        for c in stride(from: 7, to: count, by: 13) { now[c] = c % 2 == 0 ? .nan : 0.25 }
        // (Into storage of its own: the body runs under `@_noLocks`.)
        let visits = UnsafeMutablePointer<Int>.allocate(capacity: count + 1)
        defer { visits.deallocate() }
        var visited = 0
        last.withUnsafeBufferPointer { l in
            now.withUnsafeBufferPointer { n in
                MixRows.eachHeard(last: l.baseAddress!, now: n.baseAddress!, count: count) { c in
                    visits[visited] = c
                    visited += 1
                }
            }
        }
        #expect(Array(UnsafeBufferPointer(start: visits, count: visited)) == (0..<count).filter { last[$0] != 0 || now[$0] != 0 })
    }

    /// `HeardSends.each`: a period that moved scans every channel and lists
    /// those heard; one that did not visits exactly those, at their kept
    /// value; a channel gone silent leaves the list, one past the rig's
    /// size (after a shrink) is not visited.
    @Test func aSettledPeriodVisitsExactlyTheSendsHeardInTheLast() {
        var sends = HeardSends(groups: 2, capacity: 40)
        var now = [Float](repeating: 0, count: 40)
        (now[3], now[37]) = (0.5, 0.25)
        // (Into storage of its own: the body runs under `@_noLocks`.)
        let seen = UnsafeMutablePointer<(Int, Float, Float)>.allocate(capacity: 40)
        defer { seen.deallocate() }
        func visits(_ g: Int = 0, count: Int = 40, moved: Bool) -> (heard: Bool, visited: [String]) {
            var n = 0
            let heard = now.withUnsafeBufferPointer { values in
                sends.each(g, now: values.baseAddress!, count: count, moved: moved) { c, start, end in
                    seen[n] = (c, start, end)
                    n += 1
                }
            }
            return (heard, (0..<n).map { "\(seen[$0].0):\(seen[$0].1)→\(seen[$0].2)" })
        }
        #expect(visits(moved: true) == (true, ["3:0.0→0.5", "37:0.0→0.25"]))
        #expect(visits(moved: false) == (true, ["3:0.5→0.5", "37:0.25→0.25"]))
        #expect(visits(1, moved: false) == (false, []), "another group heard nothing")
        now[3] = 0
        #expect(visits(moved: true) == (true, ["3:0.5→0.0", "37:0.25→0.25"]), "going silent is visited once")
        #expect(visits(moved: false) == (true, ["37:0.25→0.25"]))
        sends.clear(from: 20)
        #expect(visits(count: 20, moved: false) == (true, []), "past the rig's size")
        now[37] = 0
        #expect(visits(count: 20, moved: true) == (false, []))
    }
}
