/// The brickwall limiter of every output on the audio thread: eight
/// outputs at once, a SIMD lane each, each with its own lookahead. Its
/// storage is made on the control side for `outputs` outputs and freed
/// there; `process` (Sources/StagePaths/Loops/Limiters+Process.swift, built
/// once per CPU level: `StagePath`) is `@_noLocks`.
///
/// Per sample, for input x of a lane whose lookahead is L samples
/// (docs/processing.md, "The limiter"):
///
/// 1. **need** = min(1, ceiling / |x|), aimed 2⁻¹² below the ceiling; the
///    two lanes of a linked stereo pair take the smaller of theirs.
/// 2. **hold**: the smallest need over the last W samples, W the same for
///    every lane (`window`: the longest lookahead + 1), as van Herk and
///    Gil-Werman compute it. W > L, so each hold window ending within the
///    L + 1 samples from n − L to n contains n − L: a lane with a shorter
///    lookahead holds a little longer (W − L − 1 samples) before it
///    releases, and every lane runs the same SIMD steps.
/// 3. **release**: the envelope falls to the hold at once and rises back
///    towards unity by `release` of the way each sample (kept as its depth
///    below unity, which decays to 0 and so to unity gain exactly).
/// 4. **attack**: the gain is the mean of the lane's last L + 1 envelope
///    values (a ring of envelopes; a lane reads its own distance back),
///    from a running sum with Kahan's compensation, counted afresh once
///    round the ring.
/// 5. **out** = x delayed by L, times the gain; a clamp to ±ceiling stays
///    as a net.
///
/// Every envelope in the mean is at most the need of x[n − L], so the
/// output never passes the ceiling.
public struct Limiters: ~Copyable {
    public typealias V = SIMD8<Float>

    /// Groups of eight outputs, and samples each ring holds.
    public let groups: Int
    public let capacity: Int
    /// Per group, `capacity` each: the input, this block's needs, the
    /// previous block's suffix minima, and the envelope's last values. Two
    /// groups' rings are interleaved, slot by slot (`ring(_:)`): where a
    /// path has registers of sixteen floats, a pair of groups whose rings
    /// stand at the same place reads and writes a slot of both at once.
    public let delay: UnsafeMutablePointer<V>
    public let needs: UnsafeMutablePointer<V>
    public let suffixes: UnsafeMutablePointer<V>
    public let envelopes: UnsafeMutablePointer<V>
    /// Per group: what moves from sample to sample and period to period.
    public let lanes: UnsafeMutablePointer<Lanes>
    /// Per output: its lowest gain since the meters last looked (1: none;
    /// the mixer sets it back to 1 each period, `MeterBank` reads it).
    public let lowest: UnsafeMutablePointer<Float>
    /// Where a lane without an output reads and writes (the last group's
    /// padding): `maxFrames` samples.
    public let spare: UnsafeMutablePointer<Float>
    /// Up to `blockLength` frames of a group, between their transposes.
    public let block: UnsafeMutablePointer<V>
    public let blockLength = 64
    /// Up to `blockLength` frames of a pair of groups side by side, for
    /// paths with registers of sixteen floats.
    public let wideBlock: UnsafeMutablePointer<SIMD16<Float>>
    /// A group's eight outputs (or a pair's sixteen), as the transposes into
    /// and out of `block` and `wideBlock` take them.
    public let channelPointers: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    /// The hold's window W, for the rate the stage runs at (`window(rate:)`).
    public var window = 1
    public var rate: Float = 0
    /// Every limiter was off, and had been, at the last period: none ran.
    public var quiet = false

    /// The longest lookahead, in seconds.
    public static let longestLookahead: Float = 0.005
    /// The highest rate the rings are sized for (5 ms at 192 kHz).
    public static let sizingRate: Float = 192_000

    /// One group's state between samples.
    public struct Lanes {
        public var prefix: V
        /// The envelope's distance below unity, 1 − envelope: kept so, it
        /// decays towards 0 without stalling a few float steps short of it
        /// (as 1 − (1 − e)·(1 − r) would), so a limiter at rest comes back
        /// to unity gain exactly.
        public var depth: V
        public var sum: V
        /// What rounding took from `sum` since its last recount (Kahan's
        /// compensation), given back at the next sample.
        public var carry: V
        /// Where this sample is in the hold's block, and in the rings.
        public var offset: Int
        public var position: Int
        /// Each lane's lookahead in samples, and the share of each of the
        /// L + 1 envelope values in its mean: 1/(L + 1), rounded up, so
        /// that a full sum of unities times it is at least unity.
        public var lookahead: SIMD8<Int32>
        public var share: V
        /// Every lane's lookahead, when they are all the same (the usual
        /// case): the rings are then read a vector at a time; −1 otherwise.
        public var shared: Int
        /// Each lane's switch at the end of the last period (0 off … 1 on).
        public var on: V
        /// Whether the group ran in the last period (false: its state is stale).
        public var running: Bool

        /// Nothing held, unity gain, no lookahead, off.
        @inlinable public init() {
            (prefix, depth, sum, share, on) = (V(repeating: 1), V(), V(repeating: 1), V(repeating: 1), V())
            (offset, position, lookahead, running, shared) = (0, 0, SIMD8(), false, 0)
            carry = V()
        }
    }

    /// Control side: storage for `outputs` outputs, periods of up to `maxFrames`.
    public init(outputs: Int, maxFrames: Int = 8192) {
        groups = max(1, (outputs + 7) / 8)
        // One more than the longest window: the value leaving a lane's mean
        // (L + 1 back) is never the slot just written.
        capacity = Int(Self.longestLookahead * Self.sizingRate) + 2
        let count = (groups + 1) / 2 * 2 * capacity // whole pairs of groups
        delay = .allocate(capacity: count)
        delay.initialize(repeating: V(), count: count)
        needs = .allocate(capacity: count)
        needs.initialize(repeating: V(repeating: 1), count: count)
        suffixes = .allocate(capacity: count)
        suffixes.initialize(repeating: V(repeating: 1), count: count)
        envelopes = .allocate(capacity: count)
        envelopes.initialize(repeating: V(repeating: 1), count: count)
        lanes = .allocate(capacity: groups)
        lanes.initialize(repeating: Lanes(), count: groups)
        lowest = .allocate(capacity: groups * 8)
        lowest.initialize(repeating: 1, count: groups * 8)
        spare = .allocate(capacity: max(1, maxFrames))
        spare.initialize(repeating: 0, count: max(1, maxFrames))
        block = .allocate(capacity: 64) // `blockLength`
        block.initialize(repeating: V(), count: 64)
        wideBlock = .allocate(capacity: 64) // `blockLength`
        wideBlock.initialize(repeating: SIMD16(), count: 64)
        channelPointers = .allocate(capacity: 16)
        channelPointers.initialize(repeating: nil, count: 16)
    }

    deinit {
        delay.deallocate()
        needs.deallocate()
        suffixes.deallocate()
        envelopes.deallocate()
        lanes.deallocate()
        lowest.deallocate()
        spare.deallocate()
        block.deallocate()
        wideBlock.deallocate()
        channelPointers.deallocate()
    }

    /// Where group `g`'s slots start in the rings: its slot i is at
    /// `ring(g) + 2·i`, beside the same slot of the other group of its pair.
    @inlinable @inline(__always) @_noLocks
    public func ring(_ g: Int) -> Int { (g >> 1) &* 2 &* capacity &+ (g & 1) }

    /// The hold's window at `rate`: the longest lookahead in samples, + 1,
    /// within what the rings hold (one slot to spare).
    @inlinable @inline(__always) @_noLocks
    public func window(rate: Float) -> Int {
        // 5 ms in samples, rounded to the nearest (`longestLookahead`).
        let samples = rate > 0 && rate < 1e7 ? Int(rate * 0.005 + 0.5) : 0
        return min(capacity - 1, samples + 1)
    }

    /// Whether a period at `sampleRate` in which no setting moved would run
    /// nothing: every limiter was off, and had been, at the last one. The
    /// caller may then leave the outputs as they are without calling `process`.
    @inlinable @_noLocks
    public func isQuiet(at sampleRate: Float) -> Bool { quiet && rate == sampleRate }

    /// Takes over `other`'s limiters for the groups both have (a rig that
    /// changed size: `other` is the kernel's before), and gives it these.
    @inlinable @_noLocks
    public mutating func exchange(with other: inout Limiters) {
        guard other.capacity == capacity else { return }
        for g in 0..<min(groups, other.groups) {
            for i in stride(from: ring(g), to: ring(g) + 2 * capacity, by: 2) {
                swap(&delay[i], &other.delay[i])
                swap(&needs[i], &other.needs[i])
                swap(&suffixes[i], &other.suffixes[i])
                swap(&envelopes[i], &other.envelopes[i])
            }
            swap(&lanes[g], &other.lanes[g])
        }
        swap(&window, &other.window)
        swap(&rate, &other.rate)
        // The groups that were not exchanged look at their settings again.
        (quiet, other.quiet) = (false, false)
    }
}
