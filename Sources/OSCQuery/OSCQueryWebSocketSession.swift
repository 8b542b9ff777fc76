import Access
import HTTPTypes
import HummingbirdWebSocket
import Logging
import NIOCore
import OSC

/// One client's WebSocket, a client session: LISTEN and IGNORE commands in
/// text frames, changes pushed to it as binary OSC frames; the binary OSC
/// frames it sends are handled like packets from any OSC client (values,
/// queries, subscriptions, bundles with their time), and the replies come
/// back on it as binary frames.
struct OSCQueryWebSocketSession: Sendable {
    /// Addresses one client may LISTEN to at once.
    static let maximumListens = 65_536
    /// The largest message a client may send.
    static let maximumMessageSize = 1 << 16
    /// A client that takes nothing while frames wait for this long is closed.
    static let stallLimit = Duration.seconds(10)

    let host: String
    /// The access granted at the upgrade (a cross-origin browser page gets
    /// at most read-only).
    let access: AccessPolicy.Access
    let gate: OSCQueryAccessGate
    let listeners: OSCQueryListeners
    let onPacket: OSCQueryServer.PacketHandler?
    let onClose: OSCQueryServer.CloseHandler
    let logger: Logger

    /// Serves the connection until the client closes it or the server stops.
    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async {
        // NIO names the peer by its numeric address, which always resolves.
        guard let address = SocketAddress.resolve(host: host, port: 0),
              let (id, queue) = listeners.add(host: host) else { return }
        let peer = OSCPeer(address: address, transport: .webSocket(id), access: access)
        defer {
            listeners.remove(id)
            onClose(peer)
        }
        logger.debug("OSCQuery: WebSocket open", metadata: ["host": "\(host)"])
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                while let frame = await queue.next() {
                    do {
                        switch frame {
                        case .binary(let bytes): try await outbound.write(.binary(bytes))
                        case .text(let text): try await outbound.write(.text(text))
                        }
                    } catch { return }
                    queue.written()
                }
                if queue.overflowed {
                    logger.warning("OSCQuery: WebSocket closed: more than \(FrameQueue.byteLimit) bytes of values wait for it",
                                   metadata: ["host": "\(host)"])
                }
            }
            group.addTask {
                // A client that stopped reading: closed rather than kept.
                while (try? await Task.sleep(for: .seconds(1))) != nil {
                    guard queue.stalled() < Self.stallLimit else {
                        logger.warning("OSCQuery: WebSocket closed: it read nothing for \(Self.stallLimit)",
                                       metadata: ["host": "\(host)"])
                        return
                    }
                }
            }
            group.addTask {
                do {
                    var listening = 0
                    for try await message in inbound.messages(maxSize: Self.maximumMessageSize) {
                        switch message {
                        case .text(let text): handleCommand(text, id: id, listening: &listening)
                        case .binary(let buffer): handleOSC(Array(buffer.readableBytesView), from: peer, id: id)
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
            guard listening < Self.maximumListens else { return }
            // Checked against the namespace in force as the LISTEN is added.
            guard let path = command.data,
                  listeners.listen(id, to: path, if: { gate.model.namespace.node(at: $0) != nil }) else {
                logger.debug("OSCQuery: LISTEN to no node", metadata: ["path": "\(command.data ?? "")"])
                return
            }
            listening += 1
        case .ignore:
            guard let path = command.data else { return }
            listeners.ignore(id, path)
        case .pathAdded, .pathRemoved, .other:
            logger.debug("OSCQuery: not a client's command", metadata: ["command": "\(command.kind.name)"])
        }
    }

    private func handleOSC(_ bytes: [UInt8], from peer: OSCPeer, id: Int) {
        let packet: OSCPacket
        do {
            packet = try OSCCodec.decode(bytes)
        } catch {
            logger.debug("OSCQuery: undecodable OSC frame", metadata: ["host": "\(host)", "error": "\(error)"])
            return
        }
        // Rules may have changed since the upgrade: ask again.
        var peer = peer
        switch gate.door.access(forHost: host) {
        case .denied:
            for message in packet.messages { gate.refuse(host, "WebSocket OSC \(message.address)") }
            return
        case .readOnly: peer.access = .readOnly
        case .full: break
        }
        guard let onPacket else {
            logger.debug("OSCQuery: OSC not accepted", metadata: ["host": "\(host)"])
            return
        }
        for reply in onPacket(packet, peer) {
            guard let bytes = OSCCodec.encode(reply) else { continue }
            _ = listeners.send(ByteBuffer(bytes: bytes), to: id)
        }
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
