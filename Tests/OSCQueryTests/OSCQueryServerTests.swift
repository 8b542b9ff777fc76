import Access
import Foundation
import HTTPTypes
import HummingbirdWSClient
import NIOCore
import Logging
import OSC
import OSCOracle
import OSCQuery
import Synchronization
import Testing

/// The real server on 127.0.0.1, an ephemeral port, queried by curl and by
/// a real WebSocket client. Serialized: each test has its own server, but
/// two at once would only compete for the machine's two cores.
@Suite(.serialized) struct OSCQueryServerTests {
    static let logger: Logger = {
        var logger = Logger(label: "oscquery-test")
        logger.logLevel = ProcessInfo.processInfo.environment["OSCQUERY_TEST_LOG"]
            .flatMap(Logger.Level.init(rawValue:)) ?? .warning
        return logger
    }()

    /// What `onPacket` received, and what it answers: `/pong` to `/ping`.
    final class SetLog: Sendable {
        private let entries = Mutex<[(OSCPacket, OSCPeer)]>([])
        private let closed = Mutex<[OSCPeer]>([])
        func append(_ packet: OSCPacket, _ peer: OSCPeer) -> [OSCPacket] {
            entries.withLock { $0.append((packet, peer)) }
            return packet.messages.contains { $0.address == "/ping" } ? [.message(OSCMessage("/pong", []))] : []
        }
        func close(_ peer: OSCPeer) { closed.withLock { $0.append(peer) } }
        var packets: [OSCPacket] { entries.withLock { $0.map(\.0) } }
        /// The messages of every packet, in order.
        var messages: [OSCMessage] { packets.flatMap(\.messages) }
        var peers: [OSCPeer] { entries.withLock { $0.map(\.1) } }
        var hosts: [String] { peers.map(\.host) }
        var closedPeers: [OSCPeer] { closed.withLock { $0 } }
    }

    /// Runs `body` with a started server, and stops it whatever happens.
    /// A door that lets every host in.
    static var everyone: AccessDoor {
        AccessDoor(AccessPolicy(allowed: ["0.0.0.0/0", "::/0"].compactMap(AccessPolicy.Network.init)))
    }

    func withServer(model: any OSCQueryModel = FakeModel(), setLog: SetLog? = nil,
                    page: [String: OSCQueryPageFile] = [:],
                    _ body: (OSCQueryServer) async throws -> Void) async throws {
        var onPacket: OSCQueryServer.PacketHandler?
        if let setLog { onPacket = { packet, peer in setLog.append(packet, peer) } }
        let server = OSCQueryServer(bind: "127.0.0.1", port: 0, oscPort: 9000, name: "Crosspoint test",
                                    model: model, door: (model as? FakeModel)?.door ?? Self.everyone,
                                    logger: Self.logger, onPacket: onPacket,
                                    onClose: { peer in setLog?.close(peer) }, page: page)
        try await server.start()
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    func url(_ server: OSCQueryServer, _ pathAndQuery: String) -> String {
        "http://127.0.0.1:\(server.port)\(pathAndQuery)"
    }

    /// Publishes `message` every 20 ms until cancelled: a LISTEN is handled
    /// asynchronously, so the first publications may precede it.
    func keepPublishing(_ server: OSCQueryServer, _ messages: [OSCMessage]) -> Task<Void, Never> {
        Task {
            while !Task.isCancelled {
                for message in messages { server.publish(message) }
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    // MARK: HTTP

    @Test func servesTheWholeNamespaceWithTheSpecsAttributes() async throws {
        try await withServer { server in
            let reply = try await Curl.get(url(server, "/"))
            #expect(reply.status == 200)
            #expect(reply.contentType == "application/json")
            let tree = try reply.json()
            #expect(SpecShape.problems(node: tree, path: "/") == [])

            let root = try #require(tree as? [String: Any])
            #expect(root["ACCESS"] as? Int == 0)
            #expect(root["DESCRIPTION"] as? String == "Crosspoint test rig")
            let contents = try #require(root["CONTENTS"] as? [String: Any])
            #expect(Set(contents.keys) == ["source", "matrix", "output", "preset", "status"])

            let volume = try #require(node(tree, "/source/1/volume"))
            #expect(volume["TYPE"] as? String == "f")
            #expect(volume["ACCESS"] as? Int == 3)
            #expect(volume["VALUE"] as? [Double] == [0.5])
            #expect((volume["RANGE"] as? [[String: Double]]) == [["MIN": 0, "MAX": 2]])
            #expect(volume["UNIT"] as? [String] == ["gain.linear"])
            #expect(volume["CLIPMODE"] as? [String] == ["both"])
            #expect(volume["DESCRIPTION"] as? String == "Source 1 gain")
            #expect(volume["CONTENTS"] == nil)

            let pan = try #require(node(tree, "/output/1/pan"))
            #expect(pan["DESCRIPTION"] as? String == "Pan of output 1, \"quoted\"")
            #expect((pan["VALUE"] as? [Any])?.count == 2)
            // No range for the second argument: null, the proposal's placeholder.
            #expect((pan["RANGE"] as? [Any])?.last is NSNull)
            #expect((pan["UNIT"] as? [Any])?.last is NSNull)
            let mode = try #require(node(tree, "/output/1/mode"))
            #expect((mode["RANGE"] as? [[String: [String]]]) == [["VALS": ["mono", "stereo"]]])

            // Write-only: no VALUE, though the model has one.
            let recall = try #require(node(tree, "/preset/recall"))
            #expect(recall["ACCESS"] as? Int == 2)
            #expect(recall["VALUE"] == nil)
            // Its other form, with its own type, range and unit.
            let overloads = try #require(recall["OVERLOADS"] as? [[String: Any]])
            #expect(overloads.count == 1 && overloads.first?["TYPE"] as? String == "sf")
            #expect((overloads.first?["UNIT"] as? [Any])?.last as? String == "time.second")
            // A method without arguments is a method (empty TYPE), not a container.
            let undo = try #require(node(tree, "/preset/undo"))
            #expect(undo["TYPE"] as? String == "")
            #expect(undo["CONTENTS"] == nil)
            // T has no JSON value but null, as the proposal's table says.
            #expect((node(tree, "/status/running")?["VALUE"] as? [Any])?.first is NSNull)

            // Numbers in order of value in the raw text: matrix 2 before 10.
            let text = reply.body
            let two = try #require(text.range(of: "\"/matrix/2\""))
            let ten = try #require(text.range(of: "\"/matrix/10\""))
            #expect(two.lowerBound < ten.lowerBound)
        }
    }

    @Test func servesOneNodeAndSingleAttributes() async throws {
        let model = FakeModel()
        try await withServer(model: model) { server in
            let source = try await Curl.get(url(server, "/source/1"))
            #expect(source.status == 200)
            #expect(source.contentType == "application/json")
            #expect(SpecShape.problems(node: try source.json(), path: "/source/1") == [])
            let slash = try await Curl.get(url(server, "/source/1/"))
            #expect(slash.body == source.body)

            func attribute(_ pathAndQuery: String) async throws -> [String: Any] {
                let reply = try await Curl.get(url(server, pathAndQuery))
                #expect(reply.status == 200, "\(pathAndQuery)")
                #expect(reply.contentType == "application/json", "\(pathAndQuery)")
                return try #require(try reply.json() as? [String: Any], "\(pathAndQuery)")
            }
            #expect(try await attribute("/source/1/volume?VALUE")["VALUE"] as? [Double] == [0.5])
            #expect(try await attribute("/source/1/volume?VALUE").keys.sorted() == ["VALUE"])
            #expect(try await attribute("/source/1/volume?TYPE")["TYPE"] as? String == "f")
            #expect(try await attribute("/source/1/volume?ACCESS")["ACCESS"] as? Int == 3)
            #expect(try await attribute("/source/1/volume?UNIT")["UNIT"] as? [String] == ["gain.linear"])
            #expect((try await attribute("/preset/recall?OVERLOADS")["OVERLOADS"] as? [Any])?.count == 1)
            #expect(try await attribute("/source/1/volume?CLIPMODE")["CLIPMODE"] as? [String] == ["both"])
            #expect(try await attribute("/source/1/volume?DESCRIPTION")["DESCRIPTION"] as? String == "Source 1 gain")
            #expect(try await attribute("/source/1/volume?FULL_PATH")["FULL_PATH"] as? String == "/source/1/volume")
            #expect(try await attribute("/source/1/volume?RANGE")["RANGE"] != nil)
            #expect((try await attribute("/source?CONTENTS")["CONTENTS"] as? [String: Any])?.count == 2)
            // A container has no TYPE: an empty object.
            #expect(try await attribute("/source?TYPE").isEmpty)
            // Percent-encoded paths are decoded.
            #expect(try await attribute("/source/%31/volume?VALUE")["VALUE"] as? [Double] == [0.5])

            // Values are current.
            model.setVolume(1, 0.75)
            #expect(try await attribute("/source/1/volume?VALUE")["VALUE"] as? [Double] == [0.75])

            // Not readable, or not served: 204. Unknown attribute: 400. No node: 404.
            #expect(try await Curl.get(url(server, "/preset/recall?VALUE")).status == 204)
            #expect(try await Curl.get(url(server, "/source/1/volume?TAGS")).status == 204)
            #expect(try await Curl.get(url(server, "/source/1/volume?BOGUS")).status == 400)
            #expect(try await Curl.get(url(server, "/nothing/here")).status == 404)
            #expect(try await Curl.get(url(server, "/source/9/volume?VALUE")).status == 404)
            let post = try await Curl.get(url(server, "/"), method: "POST")
            #expect(post.status == 405 && post.headers["allow"] == "GET, HEAD, OPTIONS")
        }
    }

    /// `HEAD` is `GET` without the body; every answer may be read by a page
    /// of any origin; a browser's preflight is answered.
    @Test func headAndPagesFromElsewhere() async throws {
        try await withServer { server in
            let get = try await Curl.get(url(server, "/source/1"), headers: ["Origin: http://elsewhere.example"])
            #expect(get.status == 200 && !get.body.isEmpty)
            #expect(get.headers["access-control-allow-origin"] == "*")
            let head = try await Curl.get(url(server, "/source/1"), method: "HEAD")
            #expect(head.status == 200)
            #expect(head.contentType == "application/json")
            #expect(head.headers["content-length"] == "\(get.body.utf8.count)")
            #expect(head.headers["access-control-allow-origin"] == "*")
            #expect(try await Curl.get(url(server, "/nothing/here"), method: "HEAD").status == 404)
            let preflight = try await Curl.get(url(server, "/"), method: "OPTIONS",
                                               headers: ["Origin: http://elsewhere.example",
                                                         "Access-Control-Request-Method: GET"])
            #expect(preflight.status == 204)
            #expect(preflight.headers["access-control-allow-origin"] == "*")
            #expect(preflight.headers["access-control-allow-methods"] == "GET, HEAD")
        }
    }

    /// A namespace larger than a chunk is streamed, and compressed for a
    /// client that asks: the same JSON either way, whole and in order.
    @Test func streamsLargeNamespacesAndCompressesThemOnRequest() async throws {
        let model = WideModel(side: 40)  // 3,200 methods, about 500 KB
        try await withServer(model: model) { server in
            let plain = try await Curl.get(url(server, "/"))
            #expect(plain.status == 200 && plain.body.utf8.count > 200_000)
            #expect(plain.headers["transfer-encoding"] == "chunked" && plain.headers["content-encoding"] == nil)
            let tree = try plain.json()
            #expect(SpecShape.problems(node: tree, path: "/") == [])
            let point = try #require(node(tree, "/grid/40/7"))
            #expect((point["VALUE"] as? [Double])?.first.map { abs($0 - 40.007) < 1e-4 } == true)
            #expect((node(tree, "/grid/40/7/db")?["TYPE"] as? String) == "f")
            let grid = try #require(node(tree, "/grid")?["CONTENTS"] as? [String: Any])
            #expect(grid.count == 40 && grid.values.allSatisfy { (($0 as? [String: Any])?["CONTENTS"] as? [String: Any])?.count == 40 })

            let packed = try await Curl.get(url(server, "/"), compressed: true)
            #expect(packed.headers["content-encoding"] == "gzip")
            #expect(packed.headers["vary"] == "Accept-Encoding")
            #expect(packed.body == plain.body)
            // A client that refuses gzip gets it plain.
            let refused = try await Curl.get(url(server, "/"), headers: ["Accept-Encoding: gzip;q=0"])
            #expect(refused.headers["content-encoding"] == nil && refused.body == plain.body)

            // HEAD measures what GET would send.
            let head = try await Curl.get(url(server, "/"), method: "HEAD")
            #expect(head.headers["content-length"] == "\(plain.body.utf8.count)")
            // A contents query streams the children alone.
            let contents = try await Curl.get(url(server, "/grid/3?CONTENTS"))
            let children = try #require((try contents.json() as? [String: Any])?["CONTENTS"] as? [String: Any])
            #expect(children.count == 40 && (children["12"] as? [String: Any])?["FULL_PATH"] as? String == "/grid/3/12")
        }
    }

    @Test func hostInfoSaysWhereAndWhatIsServed() async throws {
        try await withServer { server in
            let reply = try await Curl.get(url(server, "/?HOST_INFO"))
            #expect(reply.status == 200)
            #expect(reply.contentType == "application/json")
            let json = try reply.json()
            #expect(SpecShape.problems(hostInfo: json, body: reply.body) == [])
            let info = try #require(json as? [String: Any])
            #expect(info["NAME"] as? String == "Crosspoint test")
            #expect(info["OSC_PORT"] as? Int == 9000)
            #expect(info["OSC_TRANSPORT"] as? String == "UDP")
            #expect(info["WS_IP"] as? String == "127.0.0.1")
            #expect(info["WS_PORT"] as? Int == server.port)
            for supported in ["ACCESS", "VALUE", "RANGE", "DESCRIPTION", "UNIT", "CLIPMODE", "LISTEN"] {
                #expect(reply.body.contains("\"\(supported)\":true"), "\(supported)")
            }
            for unsupported in ["PATH_CHANGED", "TAGS", "CRITICAL", "HTML"] {
                #expect(reply.body.contains("\"\(unsupported)\":false"), "\(unsupported)")
            }
            // The path does not matter for HOST_INFO.
            #expect(try await Curl.get(url(server, "/source/1?HOST_INFO")).body == reply.body)
        }
    }
}
