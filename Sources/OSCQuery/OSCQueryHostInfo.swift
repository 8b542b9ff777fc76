import JSON

/// The answer to `?HOST_INFO`: who this server is, where its OSC and
/// WebSocket servers are, and which optional parts of OSCQuery it has.
struct OSCQueryHostInfo: Sendable {
    /// `NAME`: a human-readable name of the host.
    var name: String
    /// `OSC_IP`: where the OSC server is, if not at the OSCQuery server's address.
    var oscIP: String?
    /// `OSC_PORT`.
    var oscPort: Int
    /// `OSC_TRANSPORT`: `UDP` or `TCP`.
    var oscTransport: String
    /// `WS_IP`: the address the client reached this server at.
    var wsIP: String?
    /// `WS_PORT`: the WebSocket is served on the HTTP port.
    var wsPort: Int

    var json: String {
        var out = JSONBytes()
        out.beginObject()
        out.key("NAME"); out.string(name)
        out.key("EXTENSIONS")
        out.beginObject()
        for (name, supported) in OSCQueryAttribute.extensions {
            out.key(name); out.bool(supported)
        }
        out.endObject()
        if let oscIP { out.key("OSC_IP"); out.string(oscIP) }
        out.key("OSC_PORT"); out.int(oscPort)
        out.key("OSC_TRANSPORT"); out.string(oscTransport)
        if let wsIP { out.key("WS_IP"); out.string(wsIP) }
        out.key("WS_PORT"); out.int(wsPort)
        out.endObject()
        return out.text
    }
}
