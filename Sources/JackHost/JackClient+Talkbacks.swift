import CJack
import MixCore

/// The talkbacks' input ports (docs/talkback.md): `talk_1…talk_N`, one per
/// talkback, made with the client and kept for its life (the number of
/// talkbacks is fixed when the rig starts). They are not sources of the
/// matrix: the process callback hands their buffers to the talkback stage.
extension JackClient {
    /// Registers `talk_t` for each of the rig's talkbacks and publishes it
    /// to the process callback. Control side; nil, or what failed.
    func registerTalkPorts() -> String? {
        while talkPorts.count < context.talkbacks {
            let name = "talk_\(talkPorts.count + 1)"
            guard let port = jack_port_register(handle, name, "32 bit float mono audio", UInt(JackPortIsInput.rawValue), 0)
            else { return "registering port \(name)" }
            context.talkPorts[talkPorts.count].store(UInt(bitPattern: port), ordering: .releasing)
            talkPorts.append(port)
        }
        return nil
    }

    var fullTalkNames: [String] { stride(from: 1, through: talkPorts.count, by: 1).map { "\(name):talk_\($0)" } }

    /// For each talkback's port, the ports connected to it.
    func talkFeeds() -> [Set<String>] { talkPorts.map(connectedNames) }
}
