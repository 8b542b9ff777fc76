#if WIDE_REGISTERS
import MixRows
import Shaping

/// Audio thread: the EQ's still sections for CPUs with registers of sixteen
/// floats (AVX-512; compiled only where `WIDE_REGISTERS` is defined). A
/// still section is seven multiply-adds and a subtraction a sample on each
/// vector (`SVFStateSpace`), and with three sections pipelined
/// (`runStillWide(sections:_:_:length:)`) the FMA units are full: the only
/// way to more channels a cycle is wider vectors. (Two sections pipelined
/// leave them waiting on the chains: measured, 256x256 with every EQ on,
/// 59.4 µs by twos against 56.8 µs by threes.) So two groups of eight that
/// both run still (`runsStill`) go as
/// one of sixteen: their frames side by side in `wideFrames`, their
/// sections' matrices and states joined lane for lane. Every lane does
/// exactly the arithmetic, in the order, of the eight-lane loop, so the
/// output is the same to the bit. A section that passes its input in only
/// one of the two groups runs in both (it gives that group's lanes their
/// input: d = 1, c1 = c2 = 0) and its state there is not kept, as the
/// eight-lane loop keeps none for it. That is the input exactly, for the
/// input in range the stage takes (`cleansing`; the outputs' is the mix's,
/// cleaned likewise), but for −0, which comes out +0 where the eight-lane
/// loop, skipping the section, keeps it.
extension Equalisers {
    typealias W = SIMD16<Float>

    /// Groups `g` and `g + 1` over `frames` frames, still, a block of
    /// frames at a time into `wideFrames` and back (`Transposes`).
    @_noLocks
    func runStill(pair g: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                  _ output: UnsafePointer<UnsafeMutablePointer<Float>>, count: Int, frames: Int) {
        let first = g &* 8
        let lanes = min(16, count &- first)
        for l in 0..<16 {
            channelPointers[l] = l < lanes ? UnsafeMutablePointer(mutating: input[first &+ l]) : silence
            channelPointers[16 &+ l] = l < lanes ? output[first &+ l] : spare
        }
        let inputs = UnsafePointer(channelPointers), outputs = UnsafePointer(channelPointers + 16)
        var start = 0
        while start < frames {
            let length = min(stillBlock, frames &- start)
            Transposes.gather(inputs, lanes: 16, offset: start, count: length, into: wideFrames)
            if cleansing {
                for k in 0..<length { wideFrames[k] = MixRows.sanitized(wideFrames[k]) }
            }
            runStill(group: g, length: length, pair: true)
            Transposes.scatter(wideFrames, lanes: 16, into: outputs, offset: start, count: length)
            start &+= length
        }
    }

    /// Sections i then j of the pair (their first group's index) over
    /// `wideFrames`, pipelined by a frame.
    @inline(__always) @_noLocks
    func runStillWide(sections i: Int, _ j: Int, length: Int) {
        let (p, q) = (WideStill(still[i], still[i &+ sections]), WideStill(still[j], still[j &+ sections]))
        var (a, b) = (WideLanes(state[i], state[i &+ sections]), WideLanes(state[j], state[j &+ sections]))
        var carried = step(p, wideFrames[0], &a)
        for k in 1..<max(1, length) {
            let x = wideFrames[k]
            wideFrames[k &- 1] = step(q, carried, &b)
            carried = step(p, x, &a)
        }
        wideFrames[length &- 1] = step(q, carried, &b)
        keep(a, section: i)
        keep(b, section: j)
    }

    /// Sections i, j and l of the pair over `wideFrames` (at least two
    /// frames), each a frame behind the one before.
    @inline(__always) @_noLocks
    func runStillWide(sections i: Int, _ j: Int, _ l: Int, length: Int) {
        let (p, q, r) = (WideStill(still[i], still[i &+ sections]), WideStill(still[j], still[j &+ sections]),
                         WideStill(still[l], still[l &+ sections]))
        var (a, b, c) = (WideLanes(state[i], state[i &+ sections]), WideLanes(state[j], state[j &+ sections]),
                         WideLanes(state[l], state[l &+ sections]))
        // (The eight-lane loop's steps, written out again: a generic loop
        // taking the steps as closures was not always specialised, and the
        // `@_noLocks` checker refused it.)
        var first = step(p, wideFrames[0], &a)
        var second = step(q, first, &b)
        first = step(p, wideFrames[1], &a)
        for k in 2..<length {
            let x = wideFrames[k]
            wideFrames[k &- 2] = step(r, second, &c)
            second = step(q, first, &b)
            first = step(p, x, &a)
        }
        wideFrames[length &- 2] = step(r, second, &c)
        second = step(q, first, &b)
        wideFrames[length &- 1] = step(r, second, &c)
        keep(a, section: i)
        keep(b, section: j)
        keep(c, section: l)
    }

    /// Section i of the pair alone over `wideFrames`.
    @inline(__always) @_noLocks
    func runStillWide(section i: Int, length: Int) {
        let p = WideStill(still[i], still[i &+ sections])
        var a = WideLanes(state[i], state[i &+ sections])
        for k in 0..<length { wideFrames[k] = step(p, wideFrames[k], &a) }
        keep(a, section: i)
    }

    /// A section's states back in its two groups (settled, as the
    /// eight-lane loop leaves them), where the section does not pass its input.
    @inline(__always) @_noLocks
    func keep(_ a: WideLanes, section i: Int) {
        if !passing[i] {
            var s = state[i]
            (s.ic1, s.ic2) = (a.ic1.lowHalf, a.ic2.lowHalf)
            s.settle()
            state[i] = s
        }
        let j = i &+ sections
        if !passing[j] {
            var s = state[j]
            (s.ic1, s.ic2) = (a.ic1.highHalf, a.ic2.highHalf)
            s.settle()
            state[j] = s
        }
    }

    /// One sample of sixteen lanes through a still section: `step(_:_:_:)`'s
    /// arithmetic in its order (this path fuses every multiply-add).
    @inline(__always) @_noLocks
    func step(_ m: WideStill, _ x: W, _ s: inout WideLanes) -> W {
        let v3 = x - s.ic2
        let y = (m.d * x).addingProduct(m.c1, s.ic1).addingProduct(m.c2, s.ic2)
        let ic1 = (m.a11 * s.ic1).addingProduct(m.b1, v3)
        let ic2 = s.ic2.addingProduct(m.b1, s.ic1).addingProduct(m.b2, v3)
        (s.ic1, s.ic2) = (ic1, ic2)
        return y
    }
}

/// Two groups' still forms of one section (`SVFStateSpace`), lane for lane.
struct WideStill {
    var a11, b1, b2, c1, c2, d: SIMD16<Float>

    @inline(__always) @_noLocks
    init(_ p: SVFStateSpace, _ q: SVFStateSpace) {
        typealias W = SIMD16<Float>
        (a11, b1) = (W(lowHalf: p.a11, highHalf: q.a11), W(lowHalf: p.b1, highHalf: q.b1))
        b2 = W(lowHalf: p.b2, highHalf: q.b2)
        (c1, c2) = (W(lowHalf: p.c1, highHalf: q.c1), W(lowHalf: p.c2, highHalf: q.c2))
        d = W(lowHalf: p.d, highHalf: q.d)
    }
}

/// Two groups' states of one section (`SVFLanes`), lane for lane.
struct WideLanes {
    var ic1, ic2: SIMD16<Float>

    @inline(__always) @_noLocks
    init(_ p: SVFLanes, _ q: SVFLanes) {
        ic1 = SIMD16(lowHalf: p.ic1, highHalf: q.ic1)
        ic2 = SIMD16(lowHalf: p.ic2, highHalf: q.ic2)
    }
}
#endif
