import MixRows

/// The sends of a stage after the mix, in groups (a talkback's into every
/// output; one side of the listen's shares of the sources), as the last
/// period ended, with the channels each group was heard on. Its storage
/// is made on the control side and freed there; `each` is `@_noLocks`.
///
/// A period whose settings did not move (`RenderKernel.wake`) has the sends
/// of the one before, so only the channels heard then are visited: a stage
/// with a few sends among hundreds of channels reads a few floats, not
/// every group's every channel.
public struct HeardSends: ~Copyable {
    public let groups: Int
    /// Channels each group is kept for: a rig that grows keeps them.
    public let capacity: Int
    /// Per group, per channel: the send as the last period ended.
    @usableFromInline let last: UnsafeMutablePointer<Float>
    /// Per group: the channels whose send was not 0 as the last period
    /// ended (`listed[g]` of them), in order.
    @usableFromInline let heard: UnsafeMutablePointer<Int32>
    @usableFromInline let listed: UnsafeMutablePointer<Int>

    public init(groups: Int, capacity: Int) {
        (self.groups, self.capacity) = (groups, capacity)
        last = .allocate(capacity: groups * capacity)
        last.initialize(repeating: 0, count: groups * capacity)
        heard = .allocate(capacity: groups * capacity)
        heard.initialize(repeating: 0, count: groups * capacity)
        listed = .allocate(capacity: groups)
        listed.initialize(repeating: 0, count: groups)
    }

    deinit {
        last.deallocate()
        heard.deallocate()
        listed.deallocate()
    }

    /// Audio thread: `body(c, start, end)` for each of the first `count`
    /// channels of group g whose send was (`start`) or is (`end`, read from
    /// `now`) not 0; with `moved` false, `now` is as it was, and only the
    /// channels heard then are visited. Whether any is heard now.
    @inlinable @inline(__always) @_noLocks
    public mutating func each(_ g: Int, now: UnsafePointer<Float>, count: Int, moved: Bool,
                              _ body: (Int, Float, Float) -> Void) -> Bool {
        let (kept, list) = (last + g &* capacity, heard + g &* capacity)
        let count = min(count, capacity)
        guard moved else {
            for i in 0..<listed[g] {
                let c = Int(list[i])
                if c < count { body(c, kept[c], kept[c]) }
            }
            return listed[g] > 0
        }
        var n = 0
        MixRows.eachHeard(last: kept, now: now, count: count) { c in
            let (start, end) = (kept[c], now[c])
            kept[c] = end
            if end != 0 {
                list[n] = Int32(truncatingIfNeeded: c)
                n &+= 1
            }
            body(c, start, end)
        }
        listed[g] = n
        return n > 0
    }

    /// Between two kernels (`RenderKernel.adopt`): takes `other`'s sends as
    /// they were. The next period looks at every send (every stage wakes).
    @inlinable @_noLocks
    public mutating func exchange(with other: inout HeardSends) {
        guard other.capacity == capacity && other.groups == groups else { return }
        for i in 0..<(groups &* capacity) { swap(&last[i], &other.last[i]) }
    }

    /// Forgets every group's sends of the channels from `channels` on (gone
    /// with a rig that shrank): one that comes back starts from silence.
    @inlinable @_noLocks
    public mutating func clear(from channels: Int) {
        for g in 0..<groups {
            for c in min(max(0, channels), capacity)..<capacity { last[g &* capacity &+ c] = 0 }
        }
    }
}
