/// A send: one channel added into another at a gain, every product kept
/// finite (`sanitized`). The talkbacks' sends into the outputs and the
/// listen's shares are sends; sixteen samples at a time, then one at a time.
/// Each gives, sample for sample, `out[k] += sanitized(input[k] * gain)`
/// (`SendTests` holds them to it).
extension MixRows {
    /// Audio thread: `out[k] += sanitized(input[k] * gain)`, `frames` long.
    @inlinable @inline(__always) @_noLocks
    public static func addSend(_ input: UnsafePointer<Float>, gain: Float, into out: UnsafeMutablePointer<Float>,
                               frames: Int) {
        let g = SIMD16<Float>(repeating: gain)
        var k = 0
        while k &+ 16 <= frames {
            let x = UnsafeRawPointer(input + k).loadUnaligned(as: SIMD16<Float>.self)
            let o = UnsafeRawPointer(out + k).loadUnaligned(as: SIMD16<Float>.self)
            UnsafeMutableRawPointer(out + k).storeBytes(of: o + sanitized(x * g), as: SIMD16<Float>.self)
            k &+= 16
        }
        while k < frames {
            out[k] += sanitized(input[k] * gain)
            k &+= 1
        }
    }

    /// Audio thread: the same with the gain going from `start` by `change`
    /// over the period, `start + change * progress[k]` at sample k.
    @inlinable @inline(__always) @_noLocks
    public static func addSend(_ input: UnsafePointer<Float>, from start: Float, change: Float,
                               progress: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>, frames: Int) {
        let (s, c) = (SIMD16<Float>(repeating: start), SIMD16<Float>(repeating: change))
        var k = 0
        while k &+ 16 <= frames {
            let x = UnsafeRawPointer(input + k).loadUnaligned(as: SIMD16<Float>.self)
            let p = UnsafeRawPointer(progress + k).loadUnaligned(as: SIMD16<Float>.self)
            let o = UnsafeRawPointer(out + k).loadUnaligned(as: SIMD16<Float>.self)
            UnsafeMutableRawPointer(out + k).storeBytes(of: o + sanitized(x * (s + c * p)), as: SIMD16<Float>.self)
            k &+= 16
        }
        while k < frames {
            out[k] += sanitized(input[k] * (start + change * progress[k]))
            k &+= 1
        }
    }
}

extension MixRows {
    /// Audio thread: `out[k] = sanitized(out[k] * (start + change * progress[k]))`,
    /// `frames` long: a gain going from `start` by `change` over the period.
    @inlinable @inline(__always) @_noLocks
    public static func applyGain(to out: UnsafeMutablePointer<Float>, from start: Float, change: Float,
                                 progress: UnsafePointer<Float>, frames: Int) {
        let (s, c) = (SIMD16<Float>(repeating: start), SIMD16<Float>(repeating: change))
        var k = 0
        while k &+ 16 <= frames {
            let p = UnsafeRawPointer(progress + k).loadUnaligned(as: SIMD16<Float>.self)
            let o = UnsafeRawPointer(out + k).loadUnaligned(as: SIMD16<Float>.self)
            UnsafeMutableRawPointer(out + k).storeBytes(of: sanitized(o * (s + c * p)), as: SIMD16<Float>.self)
            k &+= 16
        }
        while k < frames {
            out[k] = sanitized(out[k] * (start + change * progress[k]))
            k &+= 1
        }
    }
}

extension MixRows {
    /// Audio thread: `body(c)` for each c below `count` where `last[c]` or
    /// `now[c]` is not 0: the sends that were or are heard. Sixteen at a
    /// time are passed over while all are 0, so a stage with a few sends
    /// among hundreds of channels costs a few comparisons.
    @inlinable @inline(__always) @_noLocks
    public static func eachHeard(last: UnsafePointer<Float>, now: UnsafePointer<Float>, count: Int,
                                 _ body: (Int) -> Void) {
        let zero = SIMD16<Float>()
        var c = 0
        while c &+ 16 <= count {
            let was = UnsafeRawPointer(last + c).loadUnaligned(as: SIMD16<Float>.self)
            let is_ = UnsafeRawPointer(now + c).loadUnaligned(as: SIMD16<Float>.self)
            if anyLane((was .!= zero) .| (is_ .!= zero)) {
                for i in c..<(c &+ 16) where last[i] != 0 || now[i] != 0 { body(i) }
            }
            c &+= 16
        }
        while c < count {
            if last[c] != 0 || now[c] != 0 { body(c) }
            c &+= 1
        }
    }
}
