import HTTPTypes
import HummingbirdWebSocket
import Logging
import NIOCore
import OSC

/// One client's WebSocket: LISTEN and IGNORE commands in text frames,
/// changes pushed to it as binary OSC frames, and binary OSC frames from
/// it taken as requests to set values.
struct OSCQueryWebSocketSession: Sendable {
    /// Addresses one client may LISTEN to at once.
    static let maximumListens = 65_536
    /// The largest message a client may send.
    static let maximumMessageSize = 1 << 16

    let host: String
    /// The access granted at the upgrade (a cross-origin browser page gets
    /// at most read-only).
    let access: OSCQueryClientAccess
    let gate: OSCQueryAccessGate
    let listeners: OSCQueryListeners
    let onSet: OSCQueryServer.SetHandler?
    let logger: Logger

    /// Serves the connection until the client closes it or the server stops.
    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async {
        guard let (id, frames) = listeners.add(host: host) else { return }
        defer { listeners.remove(id) }
        logger.debug("OSCQuery: WebSocket open", metadata: ["host": "\(host)"])
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await frame in frames {
                    do { try await outbound.write(.binary(frame)) } catch { return }
                }
            }
            group.addTask {
                do {
                    var listening = 0
                    for try await message in inbound.messages(maxSize: Self.maximumMessageSize) {
                        switch message {
                        case .text(let text): handleCommand(text, id: id, listening: &listening)
                        case .binary(let buffer): handleOSC(Array(buffer.readableBytesView))
                        }
                    }
                } catch {
                    logger.debug("OSCQuery: WebSocket read ended", metadata: ["error": "\(error)"])
                }
            }
            // Whichever ends first (client gone, or server stopping) ends both.
            await group.next()
            group.cancelAll()
        }
        logger.debug("OSCQuery: WebSocket closed", metadata: ["host": "\(host)"])
    }

    private func handleCommand(_ text: String, id: Int, listening: inout Int) {
        guard let command = OSCQueryCommand(json: text) else {
            logger.debug("OSCQuery: not a command", metadata: ["host": "\(host)", "text": "\(text.prefix(200))"])
            return
        }
        switch command.kind {
        case .listen:
            guard let path = command.data, gate.model.node(at: path) != nil else {
                logger.debug("OSCQuery: LISTEN to no node", metadata: ["path": "\(command.data ?? "")"])
                return
            }
            guard listening < Self.maximumListens else { return }
            listening += 1
            listeners.listen(id, to: path)
        case .ignore:
            guard let path = command.data else { return }
            listeners.ignore(id, path)
        case .other(let name):
            logger.debug("OSCQuery: unknown command", metadata: ["command": "\(name)"])
        }
    }

    private func handleOSC(_ bytes: [UInt8]) {
        var packet: OSCPacket
        do {
            packet = try OSCCodec.decode(bytes)
        } catch {
            logger.debug("OSCQuery: undecodable OSC frame", metadata: ["host": "\(host)", "error": "\(error)"])
            return
        }
        // Rules may have changed since the upgrade: ask again.
        guard access == .full, gate.model.access(for: host) == .full else {
            for message in packet.messages { gate.refuse(host, "WebSocket set \(message.address)") }
            return
        }
        guard let onSet else {
            logger.debug("OSCQuery: sets not accepted", metadata: ["host": "\(host)"])
            return
        }
        // A bundle's messages take effect together, at once: its time tag is
        // not kept (replies, such as /late, have no way back to this client).
        if case .bundle(var bundle) = packet {
            bundle.timeTag = .immediately
            packet = .bundle(bundle)
        }
        onSet(packet, host)
    }

    /// Whether a browser sent the upgrade from a page of another host. Such
    /// a page may be any web site the client's user visits, so it must not
    /// control the rig on the user's behalf. Non-browser clients send no
    /// `Origin`; pages from this host (any port) count as the same origin.
    static func isCrossOrigin(_ request: HTTPRequest) -> Bool {
        let origins = request.headerFields[values: .origin]
        guard !origins.isEmpty else { return false }
        guard let authority = request.authority else { return true }
        let host = hostName(Substring(authority))
        // Browsers send one Origin; of several, each must be this host.
        return origins.contains { origin in
            guard let schemeEnd = origin.firstRange(of: "://") else { return true }
            return hostName(origin[schemeEnd.upperBound...]) != host
        }
    }

    /// `host` from `host:port`, `[v6]:port`, `host`; lowercased.
    private static func hostName(_ authority: Substring) -> String {
        var authority = authority
        if let slash = authority.firstIndex(of: "/") { authority = authority[..<slash] }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return authority[authority.index(after: authority.startIndex)..<close].lowercased()
        }
        if let colon = authority.lastIndex(of: ":") { authority = authority[..<colon] }
        return authority.lowercased()
    }
}
