import OSC

/// How many bytes of query replies each session may have a second: a
/// wildcard query answers far more than it asks (`/matrix/*/*` is 14 bytes
/// and answers 4,096 messages at 64x64), so a sender, or someone spoofing a
/// sender's address over UDP, could otherwise turn the rig into a flood. A
/// bucket per session holds up to `bytesPerSecond` and refills at that
/// rate; a query whose replies would overdraw it is refused whole with
/// `/error`. Subscribing (`/subscribe`) is the way to read a whole large
/// rig: its full state is paced, not bounded.
struct QueryAllowance {
    static let bytesPerSecond = 1 << 20
    /// Past this many sessions, those with a full bucket are forgotten.
    static let remembered = 1024

    private var buckets: [OSCPeer: (bytes: Double, at: ContinuousClock.Instant)] = [:]

    /// Takes `bytes` from `peer`'s bucket; false, taking nothing, when it
    /// holds fewer.
    mutating func spend(_ bytes: Int, by peer: OSCPeer, at now: ContinuousClock.Instant = .now) -> Bool {
        let rate = Double(Self.bytesPerSecond)
        func refilled(_ bucket: (bytes: Double, at: ContinuousClock.Instant)) -> Double {
            let elapsed = now - bucket.at
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            return min(rate, bucket.bytes + seconds * rate)
        }
        let held = buckets[peer].map(refilled) ?? rate
        guard Double(bytes) <= held else { return false }
        buckets[peer] = (held - Double(bytes), now)
        if buckets.count > Self.remembered { buckets = buckets.filter { refilled($0.value) < rate } }
        return true
    }
}
