import CJack
import MixCore

extension JackClient {
    /// Each output's delay beyond the period, in frames (its limiter's
    /// lookahead; 0 when off): stored for the latency callback, and JACK
    /// asked to work the graph's latencies out again when any changed.
    func setLatencies(_ frames: [Int]) {
        var changed = false
        for m in 0..<min(frames.count, Mixer.channelLimit) {
            if context.outputLatency[m].exchange(frames[m], ordering: .relaxed) != frames[m] { changed = true }
        }
        if changed { jack_recompute_total_latencies(handle) }
    }
}
