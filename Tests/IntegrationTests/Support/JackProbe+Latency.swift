import CJack

extension JackProbe {
    /// The latency JACK reports for `port`, in frames: its capture latency
    /// (how long ago what it carries came in) or its playback latency.
    public func latency(of port: String, capture: Bool) throws -> (min: UInt32, max: UInt32)? {
        try withClient { client in
            guard let handle = jack_port_by_name(client, port) else { return nil }
            var range = jack_latency_range_t()
            jack_port_get_latency_range(handle, capture ? JackCaptureLatency : JackPlaybackLatency, &range)
            return (range.min, range.max)
        }
    }
}
