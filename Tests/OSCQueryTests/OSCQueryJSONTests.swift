import JSON
import HTTPTypes
import NIOCore
import OSC
@testable import OSCQuery
import Testing

/// The parts that need no network: JSON, trees, URL and command parsing.
@Suite struct JSONBytesTests {
    @Test func writesNumbersStringsAndNulls() {
        var out = JSONBytes()
        out.beginArray()
        for argument: OSCArgument in [.float(0.1), .float(1), .double(-2.5e-7), .int32(-3), .int64(1 << 40),
                                      .float(.nan), .double(.infinity), .string("a\"b\\c\n\u{01}é"),
                                      .symbol("s"), .bool(true), .nil, .impulse, .blob([1])] {
            out.argument(argument)
        }
        out.endArray()
        #expect(out.text == #"[0.1,1.0,-2.5e-07,-3,1099511627776,null,null,"a\"b\\c\n\u0001é","s",null,null,null,null]"#)
    }

    @Test func nestsObjectsAndArraysWithCommas() {
        var out = JSONBytes()
        out.beginObject()
        out.key("A"); out.beginArray(); out.beginObject(); out.endObject(); out.beginObject(); out.endObject(); out.endArray()
        out.key("B"); out.beginObject(); out.key("C"); out.int(1); out.key("D"); out.null(); out.endObject()
        out.endObject()
        #expect(out.text == #"{"A":[{},{}],"B":{"C":1,"D":null}}"#)
    }

    @Test func aNamespaceIsBuiltFromDeclaredNodesAndFoundByPath() throws {
        let namespace = OSCQueryNamespace([
            OSCQueryNode(fullPath: "/a/b/c", typeTags: "f"),
            OSCQueryNode.container("/a", description: "A"),
            OSCQueryNode(fullPath: "/a/d", typeTags: "i"),
            OSCQueryNode(fullPath: "/n/10", typeTags: "i"),
            OSCQueryNode(fullPath: "/n/2", typeTags: "i"),
            OSCQueryNode(fullPath: "/n/x", typeTags: "i"),
        ])
        #expect(namespace.count == 9)
        let a = try #require(namespace.node(at: "/a"))
        #expect(namespace.description(of: a.index).map { String(decoding: $0, as: UTF8.self) } == "A")
        #expect(namespace.entries[namespace.entries[a.index].children].map(\.name) == ["b", "d"])
        #expect(namespace.path(of: try #require(namespace.node(at: "/a/b/c/"))) == "/a/b/c")
        #expect(namespace.isContainer(try #require(namespace.node(at: "/a/b")).index))
        #expect(!namespace.isContainer(try #require(namespace.node(at: "/a/d")).index))
        #expect(namespace.node(at: "/a/x") == nil && namespace.node(at: "/a/b/c/d") == nil)
        #expect(namespace.node(at: "/") == namespace.root && namespace.node(at: "") == namespace.root)
        // Numbers by value, then names; "02" is not "2".
        let n = try #require(namespace.node(at: "/n"))
        #expect(namespace.entries[namespace.entries[n.index].children].map(\.name) == ["2", "10", "x"])
        #expect(namespace.node(at: "/n/02") == nil && namespace.node(at: "/n/10") != nil)
    }

    @Test func aNodeWithChildrenIsAMethodListingThemInContents() throws {
        struct Values: OSCQueryValues {
            func arguments(_ key: Int) -> [OSCArgument]? { [.float(Float(key))] }
        }
        let namespace = OSCQueryNamespace([
            OSCQueryNode(fullPath: "/p", typeTags: "f", access: .readWrite, valueKey: 1),
            OSCQueryNode(fullPath: "/p/db", typeTags: "f", access: .readWrite, valueKey: 2),
        ])
        var stream = OSCQueryNamespace.JSONStream(namespace, node: try #require(namespace.node(at: "/p")),
                                                  values: Values())
        var text = ""
        while let chunk = stream.next(size: 1) { text += String(decoding: chunk, as: UTF8.self) }
        #expect(text == #"{"FULL_PATH":"/p","ACCESS":3,"TYPE":"f","VALUE":[1.0],"CONTENTS":{"#
            + #""db":{"FULL_PATH":"/p/db","ACCESS":3,"TYPE":"f","VALUE":[2.0]}}}"#)
    }

    @Test func ordersNamesNumericallyThenAlphabetically() {
        let names = ["10", "b", "2", "a", "1"]
        #expect(names.sorted { OSCQueryNamespace.OrderKey($0) < OSCQueryNamespace.OrderKey($1) } == ["1", "2", "10", "a", "b"])
    }

    @Test func accessBitsFollowTheProposal() {
        #expect(OSCQueryNode.Access.allCases.map(\.rawValue) == [0, 1, 2, 3])
        #expect(OSCQueryNode.Access.readWrite.isReadable && OSCQueryNode.Access.readWrite.isWritable)
        #expect(!OSCQueryNode.Access.write.isReadable)
        #expect(OSCQueryNode(fullPath: "/x").isReadable)  // no ACCESS: readable
    }

    @Test func parsesQueriesAndPaths() {
        #expect(OSCQueryResponder.attributeName(fromQuery: "VALUE") == "VALUE")
        #expect(OSCQueryResponder.attributeName(fromQuery: "VALUE=&x=1") == "VALUE")
        #expect(OSCQueryResponder.attributeName(fromQuery: "") == nil)
        #expect(OSCQueryResponder.oscPath(fromURLPath: "/") == "/")
        #expect(OSCQueryResponder.oscPath(fromURLPath: "") == "/")
        #expect(OSCQueryResponder.oscPath(fromURLPath: "/a/b//") == "/a/b")
        #expect(OSCQueryResponder.oscPath(fromURLPath: "/a%20b/%C3%A9") == "/a b/é")
        #expect(OSCQueryResponder.oscPath(fromURLPath: "/a%2") == nil)
        #expect(OSCQueryResponder.oscPath(fromURLPath: "/a%zz") == nil)
        #expect(OSCQueryResponder.oscPath(fromURLPath: "/%FF") == nil)
    }

    @Test func acceptEncodingIsReadAsHTTPSaysIt() {
        #expect(OSCQueryResponder.acceptsGzip(["gzip, deflate, br"]))
        #expect(OSCQueryResponder.acceptsGzip(["br;q=1.0, GZIP;q=0.5"]))
        #expect(OSCQueryResponder.acceptsGzip(["*"]))
        #expect(!OSCQueryResponder.acceptsGzip(["gzip;q=0"]))
        #expect(!OSCQueryResponder.acceptsGzip(["gzip; q=0.000"]))
        #expect(!OSCQueryResponder.acceptsGzip(["identity", "deflate"]))
        #expect(!OSCQueryResponder.acceptsGzip([]))
    }

    @Test func parsesWebSocketCommands() {
        #expect(OSCQueryCommand(json: #"{"COMMAND":"LISTEN","DATA":"/a/b"}"#)
            == OSCQueryCommand(kind: .listen, data: "/a/b"))
        #expect(OSCQueryCommand(json: #" { "DATA" : "/a", "COMMAND" : "IGNORE" } "#)?.kind == .ignore)
        let renamed = OSCQueryCommand(json: #"{"COMMAND":"PATH_RENAMED","DATA":{"OLD":"/a","NEW":"/b"}}"#)
        #expect(renamed == OSCQueryCommand(kind: .other("PATH_RENAMED"), data: nil))
        #expect(OSCQueryCommand(json: #"{"DATA":"/a"}"#) == nil)
        #expect(OSCQueryCommand(json: "LISTEN /a") == nil)
    }

    @Test func tellsCrossOriginBrowserRequests() {
        func request(authority: String?, origin: String?...) -> HTTPRequest {
            var request = HTTPRequest(method: .get, scheme: nil, authority: authority, path: "/")
            for value in origin { if let value { request.headerFields.append(HTTPField(name: .origin, value: value)) } }
            return request
        }
        #expect(!OSCQueryWebSocketSession.isCrossOrigin(request(authority: "10.0.0.5:9001", origin: nil)))
        #expect(!OSCQueryWebSocketSession.isCrossOrigin(request(authority: "10.0.0.5:9001", origin: "http://10.0.0.5:8080")))
        #expect(!OSCQueryWebSocketSession.isCrossOrigin(request(authority: "Mixer.local:9001", origin: "https://mixer.local")))
        #expect(!OSCQueryWebSocketSession.isCrossOrigin(request(authority: "[::1]:9001", origin: "http://[::1]:3000")))
        #expect(OSCQueryWebSocketSession.isCrossOrigin(request(authority: "10.0.0.5:9001", origin: "http://evil.example")))
        #expect(OSCQueryWebSocketSession.isCrossOrigin(request(authority: "10.0.0.5:9001", origin: "null")))
        #expect(OSCQueryWebSocketSession.isCrossOrigin(request(authority: nil, origin: "http://10.0.0.5")))
        #expect(!OSCQueryWebSocketSession.isCrossOrigin(request(authority: "10.0.0.5", origin: "ws://10.0.0.5", "http://10.0.0.5")))
        #expect(OSCQueryWebSocketSession.isCrossOrigin(request(authority: "10.0.0.5", origin: "ws://10.0.0.5", "http://evil.example")))
    }

    @Test func namesPeersAsTheModelIsAsked() throws {
        #expect(try NIOCore.SocketAddress(ipAddress: "127.0.0.1", port: 1).peerHost == "127.0.0.1")
        #expect(try NIOCore.SocketAddress(ipAddress: "::1", port: 1).peerHost == "::1")
        // A dual-stack socket sees IPv4 clients as IPv4-mapped IPv6 addresses.
        #expect(try NIOCore.SocketAddress(ipAddress: "::ffff:192.168.1.20", port: 1).peerHost == "192.168.1.20")
        #expect(try NIOCore.SocketAddress(ipAddress: "fe80::1", port: 1).peerHost == "fe80::1")
    }

    @Test func hostInfoListsExtensionsTruthfully() {
        let info = OSCQueryHostInfo(name: "n", oscIP: nil, oscPort: 1, oscTransport: "UDP", wsIP: "1.2.3.4", wsPort: 2)
        #expect(info.json.hasPrefix(#"{"NAME":"n","EXTENSIONS":{"ACCESS":true,"#))
        #expect(info.json.hasSuffix(#""OSC_PORT":1,"OSC_TRANSPORT":"UDP","WS_IP":"1.2.3.4","WS_PORT":2}"#))
        #expect(!info.json.contains("OSC_IP"))
        // Every attribute the responder serves is announced; none it refuses is.
        for attribute in OSCQueryAttribute.allCases where attribute != .hostInfo {
            let announced = OSCQueryAttribute.extensions.first { $0.0 == attribute.rawValue }?.1
            if [.fullPath, .contents].contains(attribute) { continue }  // required, not extensions
            #expect(announced == attribute.isServed, "\(attribute)")
        }
    }
}
