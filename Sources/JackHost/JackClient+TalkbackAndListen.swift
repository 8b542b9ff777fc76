import CJack
import MixCore
import Synchronization

/// The talkbacks' input ports (docs/talkback.md): `talk_1…talk_N`, one per
/// talkback, and the listen's pair, `listen_1` and `listen_2`: made with the
/// client and kept for its life (fixed when the rig starts). They are not
/// the matrix's: the process callback hands their buffers to the talkback
/// and listen stages.
extension JackClient {
    /// Registers `talk_t` for each of the rig's talkbacks and publishes it
    /// to the process callback. Control side; nil, or what failed.
    func registerTalkPorts() -> String? {
        register(&talkPorts, "talk_", count: context.talkbacks, flags: JackPortIsInput, table: context.talkPorts)
    }

    var fullTalkNames: [String] { stride(from: 1, through: talkPorts.count, by: 1).map { "\(name):talk_\($0)" } }

    /// For each talkback's port, the ports connected to it.
    func talkFeeds() -> [Set<String>] { talkPorts.map(connectedNames) }

    /// The listen's output ports, `listen_1` and `listen_2`, when the rig
    /// has a listen (`ProcessContext.listen`), published to the process
    /// callback. Control side; nil, or what failed.
    func registerListenPorts() -> String? {
        register(&listenPorts, "listen_", count: context.listen ? 2 : 0, flags: JackPortIsOutput, table: context.listenPorts)
    }

    /// Registers `prefix1…prefixN` up to `count` into `ports`, each
    /// published to the process callback in `table` once made.
    private func register(_ ports: inout [OpaquePointer], _ prefix: String, count: Int, flags: JackPortFlags,
                          table: UnsafeMutablePointer<Atomic<UInt>>) -> String? {
        while ports.count < count {
            let name = "\(prefix)\(ports.count + 1)"
            guard let port = jack_port_register(handle, name, "32 bit float mono audio", UInt(flags.rawValue), 0)
            else { return "registering port \(name)" }
            table[ports.count].store(UInt(bitPattern: port), ordering: .releasing)
            ports.append(port)
        }
        return nil
    }

    var fullListenNames: [String] { stride(from: 1, through: listenPorts.count, by: 1).map { "\(name):listen_\($0)" } }

    /// For each of the listen's ports, the ports it feeds.
    func listenSends() -> [Set<String>] { listenPorts.map(connectedNames) }
}
