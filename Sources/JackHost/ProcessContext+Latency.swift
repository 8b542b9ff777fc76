import CJack
import MixCore
import Synchronization

/// What the rig tells JACK of its latency: an output whose limiter looks
/// ahead is that many frames late, so that JACK-aware clients (a recorder,
/// a DAW) can compensate. The callback runs on libjack's notification
/// thread, never the process thread; it reads the frames from atomics the
/// supervisor stores (`JackClient.setLatencies`).
extension ProcessContext {
    static let latency: JackLatencyCallback = { mode, context in
        guard let context else { return }
        Unmanaged<ProcessContext>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.reportLatency(mode) }
    }

    /// Capture: each output's is our inputs' plus its own delay; a direct
    /// out's, our inputs' (it is not delayed). Playback: each input's is the
    /// latest of the outputs' plus their delay and of the direct outs'
    /// (JACK's rule for a client that delays; once a client has a latency
    /// callback JACK works out none of its ports itself).
    func reportLatency(_ mode: jack_latency_callback_mode_t) {
        let channels = Mixer.channelLimit
        func port(_ table: UnsafeMutablePointer<Atomic<UInt>>, _ c: Int) -> OpaquePointer? {
            OpaquePointer(bitPattern: table[c].load(ordering: .acquiring))
        }
        func own(_ m: Int) -> UInt32 { UInt32(clamping: outputLatency[m].load(ordering: .relaxed)) }
        if mode == JackCaptureLatency {
            var upstream = jack_latency_range_t(min: UInt32.max, max: 0)
            for n in 0..<channels {
                guard let input = port(inputPorts, n) else { continue }
                var range = jack_latency_range_t()
                jack_port_get_latency_range(input, JackCaptureLatency, &range)
                upstream = jack_latency_range_t(min: min(upstream.min, range.min), max: max(upstream.max, range.max))
            }
            if upstream.min > upstream.max { upstream = jack_latency_range_t(min: 0, max: 0) }
            for m in 0..<channels {
                if let output = port(outputPorts, m) {
                    var range = jack_latency_range_t(min: upstream.min &+ own(m), max: upstream.max &+ own(m))
                    jack_port_set_latency_range(output, JackCaptureLatency, &range)
                }
                if let direct = port(directPorts, m) {
                    var range = upstream
                    jack_port_set_latency_range(direct, JackCaptureLatency, &range)
                }
            }
        } else {
            var downstream = jack_latency_range_t(min: UInt32.max, max: 0)
            for c in 0..<channels {
                for (table, delay) in [(outputPorts, own(c)), (directPorts, UInt32(0))] {
                    guard let sending = port(table, c) else { continue }
                    var range = jack_latency_range_t()
                    jack_port_get_latency_range(sending, JackPlaybackLatency, &range)
                    downstream = jack_latency_range_t(min: min(downstream.min, range.min &+ delay),
                                                      max: max(downstream.max, range.max &+ delay))
                }
            }
            if downstream.min > downstream.max { downstream = jack_latency_range_t(min: 0, max: 0) }
            for n in 0..<channels {
                guard let input = port(inputPorts, n) else { continue }
                var range = downstream
                jack_port_set_latency_range(input, JackPlaybackLatency, &range)
            }
        }
    }
}
