import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import OSC
@testable import OSCQuery
import Testing

/// A namespace replaced while the server runs (a rig that changes size):
/// what WebSocket clients are told, what HTTP serves, which LISTENs end.
extension OSCQueryServerTests {
    @Test func aReplacedNamespaceIsAnnouncedServedAndEndsListensBelowRemovedNodes() async throws {
        try await withServer { server in
            #expect(try await Curl.get(url(server, "/source/2")).status == 200)
            let two = OSCMessage("/source/2/volume", [.float(0.25)])
            let one = OSCMessage("/source/1/volume", [.float(0.5)])
            let three = OSCMessage("/source/3/volume", [.float(0.75)])
            let expected = [#"{"COMMAND":"PATH_REMOVED","DATA":"/source/2"}"#,
                            #"{"COMMAND":"PATH_ADDED","DATA":"/source/3"}"#,
                            #"{"COMMAND":"PATH_ADDED","DATA":"/source/4"}"#]
            // A second client, which listens to nothing, is told too.
            try await WebSocketProbe.run(port: server.port) { quietInbound, _ in
                var quiet = quietInbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                try await WebSocketProbe.run(port: server.port) { inbound, outbound in
                    var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                    // LISTEN below the node to be removed, and to one that stays.
                    try await outbound.write(WebSocketProbe.command("LISTEN", "/source/1/volume"))
                    try await outbound.write(WebSocketProbe.command("LISTEN", "/source/2/volume"))
                    let publisher = keepPublishing(server, [two])
                    #expect(try await WebSocketProbe.nextOSC(&messages) == two)
                    publisher.cancel()
                    _ = await publisher.value
                    // Drain what the publisher queued: `one` comes after it.
                    server.publish(one)
                    while try await WebSocketProbe.nextOSC(&messages) != one {}
                    while server.webSocketClientCount < 2 { try await Task.sleep(for: .milliseconds(10)) }

                    let change = server.replaceModel(with: FakeModel(sources: [1, 3, 4]))
                    #expect(change.removed == ["/source/2"] && change.added == ["/source/3", "/source/4"])
                    // Frames are queued in order: had the LISTEN on /source/2/volume
                    // survived, `two` would come before `one`.
                    server.publish(two)
                    server.publish(one)
                    for text in expected { #expect(try await WebSocketProbe.nextText(&messages) == text) }
                    #expect(try await WebSocketProbe.nextOSC(&messages) == one)

                    // A LISTEN to the removed path is refused now; one to an added path is taken.
                    try await outbound.write(WebSocketProbe.command("LISTEN", "/source/2/volume"))
                    try await outbound.write(WebSocketProbe.command("LISTEN", "/source/3/volume"))
                    let again = keepPublishing(server, [two, three])
                    let received = try await WebSocketProbe.nextOSC(&messages)
                    again.cancel()
                    #expect(received == three)
                }
                for text in expected { #expect(try await WebSocketProbe.nextText(&quiet) == text) }
            }

            // HTTP serves the new tree.
            let tree = try await Curl.get(url(server, "/")).json()
            let sources = try #require(node(tree, "/source")?["CONTENTS"] as? [String: Any])
            #expect(Set(sources.keys) == ["1", "3", "4"])
            #expect((node(tree, "/source/3/volume")?["VALUE"] as? [Double]) == [0.75])
            #expect(try await Curl.get(url(server, "/source/2")).status == 404)
            #expect(try await Curl.get(url(server, "/source/2/volume?VALUE")).status == 404)
            let info = try #require(try await Curl.get(url(server, "/?HOST_INFO")).json() as? [String: Any])
            let extensions = try #require(info["EXTENSIONS"] as? [String: Bool])
            #expect(extensions["PATH_ADDED"] == true && extensions["PATH_REMOVED"] == true)
            #expect(extensions["PATH_CHANGED"] == false && extensions["PATH_RENAMED"] == false)
        }
    }

    @Test func theSameTreeAgainSendsNothing() async throws {
        try await withServer { server in
            try await WebSocketProbe.run(port: server.port) { inbound, outbound in
                var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                try await outbound.write(WebSocketProbe.command("LISTEN", "/source/2/volume"))
                while server.webSocketClientCount < 1 { try await Task.sleep(for: .milliseconds(10)) }
                #expect(server.replaceModel(with: FakeModel()).isEmpty)
                // The first frame is the value: no command came before it, and
                // the LISTEN held.
                let two = OSCMessage("/source/2/volume", [.float(0.5)])
                let publisher = keepPublishing(server, [two])
                #expect(try await WebSocketProbe.nextOSC(&messages) == two)
                publisher.cancel()
            }
        }
    }

    /// An answer takes the model once, when it begins: one written while
    /// the model is replaced is the old model's whole.
    @Test func anAnswerBegunBeforeAReplacementFinishesWithItsModel() throws {
        let gate = OSCQueryAccessGate(model: WideModel(side: 40), door: Self.everyone, logger: Self.logger)
        let responder = OSCQueryResponder(gate: gate, hostName: OSCQueryHostName("t"), oscIP: nil, oscPort: 9000,
                                          oscTransport: "UDP")
        var stream = try #require(responder.answer(path: "/", query: nil, local: nil).stream)
        let first = stream.next()
        var text = String(decoding: try #require(first), as: UTF8.self)
        _ = gate.replaceModel(with: FakeModel())
        while let chunk = stream.next() { text += String(decoding: chunk, as: UTF8.self) }
        let tree = try JSONSerialization.jsonObject(with: Data(text.utf8))
        #expect((node(tree, "/grid")?["CONTENTS"] as? [String: Any])?.count == 40)
        #expect(node(tree, "/grid/40/40/db") != nil && node(tree, "/source") == nil)
        // The next answer is the new model's.
        #expect(responder.answer(path: "/grid", query: nil, local: nil).status == .notFound)
        #expect(responder.answer(path: "/source/1/volume", query: "VALUE", local: nil).json == #"{"VALUE":[0.5]}"#)
    }
}
