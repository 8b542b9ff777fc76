#if WIDE_REGISTERS
import MixRows
import Shaping

/// Audio thread: the EQ's still sections for CPUs with registers of sixteen
/// floats (AVX-512; compiled only where `WIDE_REGISTERS` is defined). A
/// still section is nine multiply-adds a sample on each vector, and with
/// two sections pipelined (`runStill(sections:_:length:pair:)`) the FMA units
/// are already full: the only way to more channels a cycle is wider
/// vectors. So two groups of eight that both run still (`runsStill`) go as
/// one of sixteen: their frames side by side in `wideFrames`, their
/// sections' matrices and states joined lane for lane. Every lane does
/// exactly the arithmetic, in the order, of the eight-lane loop, so the
/// output is the same to the bit. A section that passes its input in only
/// one of the two groups runs in both (it gives that group's lanes their
/// input exactly: d = 1, c1 = c2 = 0) and its state there is not kept,
/// as the eight-lane loop keeps none for it.
extension Equalisers {
    typealias W = SIMD16<Float>

    /// Groups `g` and `g + 1` over `frames` frames, still.
    @_noLocks
    func runStill(pair g: Int, _ input: UnsafePointer<UnsafePointer<Float>>,
                  _ output: UnsafePointer<UnsafeMutablePointer<Float>>, count: Int, frames: Int) {
        let first = g &* 8
        let lanes = min(16, count &- first)
        func from(_ l: Int) -> UnsafePointer<Float> { l < lanes ? input[first &+ l] : UnsafePointer(silence) }
        func into(_ l: Int) -> UnsafeMutablePointer<Float> { l < lanes ? output[first &+ l] : spare }
        let (i0, i1, i2, i3, i4, i5, i6, i7) = (from(0), from(1), from(2), from(3), from(4), from(5), from(6), from(7))
        let (j0, j1, j2, j3) = (from(8), from(9), from(10), from(11))
        let (j4, j5, j6, j7) = (from(12), from(13), from(14), from(15))
        let (o0, o1, o2, o3, o4, o5, o6, o7) = (into(0), into(1), into(2), into(3), into(4), into(5), into(6), into(7))
        let (p0, p1, p2, p3) = (into(8), into(9), into(10), into(11))
        let (p4, p5, p6, p7) = (into(12), into(13), into(14), into(15))
        var start = 0
        while start < frames {
            let length = min(stillBlock, frames &- start)
            var k = start
            while k &+ 8 <= start &+ length {
                func row(_ p: UnsafePointer<Float>) -> V { UnsafeRawPointer(p + k).loadUnaligned(as: V.self) }
                let a = transposed((row(i0), row(i1), row(i2), row(i3), row(i4), row(i5), row(i6), row(i7)))
                let b = transposed((row(j0), row(j1), row(j2), row(j3), row(j4), row(j5), row(j6), row(j7)))
                let at = wideFrames + (k &- start)
                (at[0], at[1], at[2], at[3]) = (W(lowHalf: a.0, highHalf: b.0), W(lowHalf: a.1, highHalf: b.1),
                                                W(lowHalf: a.2, highHalf: b.2), W(lowHalf: a.3, highHalf: b.3))
                (at[4], at[5], at[6], at[7]) = (W(lowHalf: a.4, highHalf: b.4), W(lowHalf: a.5, highHalf: b.5),
                                                W(lowHalf: a.6, highHalf: b.6), W(lowHalf: a.7, highHalf: b.7))
                k &+= 8
            }
            for k in k..<(start &+ length) {
                wideFrames[k &- start] = W(lowHalf: V(i0[k], i1[k], i2[k], i3[k], i4[k], i5[k], i6[k], i7[k]),
                                           highHalf: V(j0[k], j1[k], j2[k], j3[k], j4[k], j5[k], j6[k], j7[k]))
            }
            runStill(group: g, length: length, pair: true)
            k = start
            while k &+ 8 <= start &+ length {
                let at = wideFrames + (k &- start)
                let a = transposed((at[0].lowHalf, at[1].lowHalf, at[2].lowHalf, at[3].lowHalf,
                                    at[4].lowHalf, at[5].lowHalf, at[6].lowHalf, at[7].lowHalf))
                let b = transposed((at[0].highHalf, at[1].highHalf, at[2].highHalf, at[3].highHalf,
                                    at[4].highHalf, at[5].highHalf, at[6].highHalf, at[7].highHalf))
                func put(_ v: V, _ p: UnsafeMutablePointer<Float>) { UnsafeMutableRawPointer(p + k).storeBytes(of: v, as: V.self) }
                put(a.0, o0); put(a.1, o1); put(a.2, o2); put(a.3, o3)
                put(a.4, o4); put(a.5, o5); put(a.6, o6); put(a.7, o7)
                put(b.0, p0); put(b.1, p1); put(b.2, p2); put(b.3, p3)
                put(b.4, p4); put(b.5, p5); put(b.6, p6); put(b.7, p7)
                k &+= 8
            }
            for k in k..<(start &+ length) {
                let v = wideFrames[k &- start]
                (o0[k], o1[k], o2[k], o3[k], o4[k], o5[k], o6[k], o7[k]) = (v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7])
                (p0[k], p1[k], p2[k], p3[k], p4[k], p5[k], p6[k], p7[k]) =
                    (v[8], v[9], v[10], v[11], v[12], v[13], v[14], v[15])
            }
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
        let y = (m.d * x).addingProduct(m.c1, s.ic1).addingProduct(m.c2, s.ic2)
        let ic1 = (m.b1 * x).addingProduct(m.a11, s.ic1).addingProduct(m.a12, s.ic2)
        let ic2 = (m.b2 * x).addingProduct(m.a21, s.ic1).addingProduct(m.a22, s.ic2)
        (s.ic1, s.ic2) = (ic1, ic2)
        return y
    }
}

/// Two groups' still forms of one section (`SVFStateSpace`), lane for lane.
struct WideStill {
    var a11, a12, a21, a22, b1, b2, c1, c2, d: SIMD16<Float>

    @inline(__always) @_noLocks
    init(_ p: SVFStateSpace, _ q: SVFStateSpace) {
        typealias W = SIMD16<Float>
        (a11, a12) = (W(lowHalf: p.a11, highHalf: q.a11), W(lowHalf: p.a12, highHalf: q.a12))
        (a21, a22) = (W(lowHalf: p.a21, highHalf: q.a21), W(lowHalf: p.a22, highHalf: q.a22))
        (b1, b2) = (W(lowHalf: p.b1, highHalf: q.b1), W(lowHalf: p.b2, highHalf: q.b2))
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
