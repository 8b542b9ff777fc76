import Hummingbird
import HTTPTypes
import NIOCore
import SystemSupport

/// Answers OSCQuery's HTTP requests: `GET /path` for a node and everything
/// below it, `GET /path?ATTRIBUTE` for one attribute, `GET /?HOST_INFO`;
/// `HEAD` as `GET` without the body. Every answer lets pages of any origin
/// read it (`Access-Control-Allow-Origin: *`): the namespace is what any
/// client on the network may read, and changes go over the WebSocket, where
/// a page of another origin is read-only.
///
/// A node with everything below it is written from the namespace a chunk
/// at a time as the client reads it (a 256x256 rig's namespace is 47 MB),
/// gzip-compressed when the client accepts it; the values are read
/// once, at the start, so the answer shows one moment.
struct OSCQueryResponder: HTTPResponder {
    typealias Context = OSCQueryRequestContext

    let gate: OSCQueryAccessGate
    let hostName: OSCQueryHostName
    let oscIP: String?
    let oscPort: Int
    let oscTransport: String
    /// The web page's files by path; empty: no page.
    var page: [String: OSCQueryPageFile] = [:]

    /// Answers smaller than this are not worth compressing.
    static let smallestCompressed = 1024

    /// A response before it becomes one: the status and a JSON or text body.
    struct Answer {
        var status: HTTPResponse.Status
        var json: String? = nil
        var text: String? = nil
        /// A JSON body written as it is sent.
        var stream: OSCQueryNamespace.JSONStream? = nil
    }

    func respond(to request: Request, context: Context) async throws -> Response {
        let host = context.remoteAddress?.peerHost ?? "?"
        guard gate.admit(host, for: "HTTP \(request.method) \(request.uri)") != .denied else {
            return await Self.response(Answer(status: .forbidden, text: "forbidden"))
        }
        switch request.method {
        case .get, .head:
            if let file = pageFile(path: request.uri.path, query: request.uri.query,
                                   accept: request.headers[values: .accept]) {
                return Self.response(file, bodyless: request.method == .head)
            }
            let answer = answer(path: request.uri.path, query: request.uri.query, local: context.localAddress)
            let gzip = Self.acceptsGzip(request.headers[values: .acceptEncoding])
            return await Self.response(answer, gzip: gzip, bodyless: request.method == .head)
        case .options:
            // A browser's preflight: reading is all there is.
            var response = await Self.response(Answer(status: .noContent))
            response.headers[.accessControlAllowMethods] = "GET, HEAD"
            response.headers[.accessControlAllowHeaders] = "*"
            return response
        default:
            var response = await Self.response(Answer(status: .methodNotAllowed, text: "only GET and HEAD are served"))
            response.headers[.allow] = "GET, HEAD, OPTIONS"
            return response
        }
    }

    /// The answer to `GET path?query` from a client that reached the server
    /// at `local`.
    func answer(path rawPath: String, query: String?, local: SocketAddress?) -> Answer {
        let attributeName = query.flatMap { Self.attributeName(fromQuery: $0) }
        if attributeName?.uppercased() == OSCQueryAttribute.hostInfo.rawValue {
            // The path is irrelevant to HOST_INFO.
            let info = OSCQueryHostInfo(name: hostName.name, oscIP: oscIP, oscPort: oscPort, oscTransport: oscTransport,
                                        wsIP: local?.peerHost, wsPort: local?.port ?? 0)
            return Answer(status: .ok, json: info.json)
        }
        guard let path = Self.oscPath(fromURLPath: rawPath) else {
            return Answer(status: .badRequest, text: "malformed path")
        }
        let model = gate.model
        let namespace = model.namespace
        guard let node = namespace.node(at: path) else {
            return Answer(status: .notFound, text: "no node at \(path)")
        }
        guard let attributeName else {
            return Answer(status: .ok, stream: .init(namespace, node: node, values: model.values()))
        }
        guard let attribute = OSCQueryAttribute(rawValue: attributeName.uppercased()) else {
            return Answer(status: .badRequest, text: "unknown attribute \(attributeName)")
        }
        // The proposal: a query for an attribute the server does not support,
        // or for the VALUE of a node that is not readable, gets 204.
        guard attribute.isServed, attribute != .value || namespace.isReadable(node) else {
            return Answer(status: .noContent)
        }
        let values = model.values()
        guard let json = namespace.json(for: attribute, of: node, values: values) else {
            return Answer(status: .ok, stream: .init(namespace, contentsOf: node, values: values))
        }
        return Answer(status: .ok, json: json)
    }

    /// The page's file a request asks for: `/page/` and `/page` its
    /// `index.html`, `/page/PATH` that file; `/` (without a query) its
    /// `index.html` when the request is a browser's, whose `Accept` lists
    /// `text/html` (an OSCQuery client's lists JSON, or `*/*`, or nothing).
    /// Nil: not the page's; 404 for a page path with no file.
    func pageFile(path: String, query: String?, accept: [String]) -> OSCQueryPageFile? {
        guard !page.isEmpty else { return nil }
        if path == "/" {
            guard query?.isEmpty ?? true, Self.acceptsHTML(accept) else { return nil }
            return page["index.html"]
        }
        guard path == "/page" || path.hasPrefix("/page/") else { return nil }
        let name = path.dropFirst("/page/".count)
        return page[name.isEmpty ? "index.html" : String(name)] ?? Self.missingPageFile
    }

    /// A page path with no file: a plain-text 404 (`response(_:)` tells it).
    static let missingPageFile = OSCQueryPageFile(contentType: "", text: "no such file\n")

    /// Whether an `Accept` list names `text/html` (without `q=0`).
    static func acceptsHTML(_ fields: [String]) -> Bool {
        accepts(fields, oneOf: ["text/html"])
    }

    /// What a page may load and where it may connect: its own files only,
    /// no inline script or style elements, WebSockets to any host (`?ws=`
    /// for development; the rig makes a cross-origin session read-only), no
    /// framing by another site (a performer tricked into tapping a hidden
    /// page), and no form submission anywhere (a code is never posted).
    static let contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; object-src 'none'"

    /// A page file's response: not cached without asking again (the files
    /// change with the binary), not to be sniffed as another type, and the
    /// page held to `contentSecurityPolicy`.
    static func response(_ file: OSCQueryPageFile, bodyless: Bool) -> Response {
        var headers = HTTPFields()
        let missing = file.contentType.isEmpty
        headers[.contentType] = missing ? "text/plain; charset=utf-8" : file.contentType
        headers[.cacheControl] = "no-cache"
        headers[.xContentTypeOptions] = "nosniff"
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        let bytes = Array(file.text.utf8)
        headers[.contentLength] = "\(bytes.count)"
        let status: HTTPResponse.Status = missing ? .notFound : .ok
        guard !bodyless else { return Response(status: status, headers: headers) }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// Whether an `Accept-Encoding` list takes gzip (`gzip`, `x-gzip` or
    /// `*`, with no `q=0`).
    static func acceptsGzip(_ fields: [String]) -> Bool {
        accepts(fields, oneOf: ["gzip", "x-gzip", "*"])
    }

    /// Whether an `Accept` or `Accept-Encoding` list (HTTP's `item;q=weight,
    /// …`, over any number of fields) names one of `items`, with a weight
    /// above 0 or none.
    static func accepts(_ fields: [String], oneOf items: Set<String>) -> Bool {
        fields.lazy.flatMap { $0.split(separator: ",") }.contains { item in
            let parts = item.split(separator: ";").map { $0.trimmingWhitespace().lowercased() }
            guard let name = parts.first, items.contains(name) else { return false }
            let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) }
            return weight.map { $0 > 0 } ?? true
        }
    }

    /// `VALUE` from `VALUE`, `VALUE=`, `VALUE&x=y`; nil for an empty query.
    static func attributeName(fromQuery query: String) -> String? {
        let first = query.split(separator: "&", maxSplits: 1).first ?? ""
        let name = first.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return name.isEmpty ? nil : String(name)
    }

    /// The OSC address of a URL path: percent-decoded, without a trailing
    /// slash (`/` stays `/`); nil for malformed percent escapes.
    static func oscPath(fromURLPath urlPath: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = urlPath.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue)
                else { return nil }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        guard var path = String(validating: bytes, as: UTF8.self) else { return nil }
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path.isEmpty ? "/" : path
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The response of an answer: a streamed one is sent in chunks as the
    /// client reads, unless it fits one chunk; `gzip` compresses JSON of
    /// some size; `bodyless` (`HEAD`) keeps the header fields, length
    /// included, and drops the body.
    static func response(_ answer: Answer, gzip: Bool = false, bodyless: Bool = false) async -> Response {
        var headers = HTTPFields()
        headers[.accessControlAllowOrigin] = "*"
        let body: [UInt8]
        if var stream = answer.stream {
            headers[.contentType] = "application/json"
            // Any JSON may be sent gzipped: caches must keep the two apart.
            headers[.vary] = "Accept-Encoding"
            let first = stream.next() ?? []
            if let second = stream.next() {
                // Larger than a chunk: streamed.
                return await streamed(first: first, second: second, rest: stream, status: answer.status, headers: headers,
                                gzip: gzip, bodyless: bodyless)
            }
            body = first
        } else if let json = answer.json {
            headers[.contentType] = "application/json"
            headers[.vary] = "Accept-Encoding"
            body = Array(json.utf8)
        } else if let text = answer.text {
            headers[.contentType] = "text/plain; charset=utf-8"
            body = Array((text + "\n").utf8)
        } else {
            return Response(status: answer.status, headers: headers)
        }
        var bytes = body
        if gzip, headers[.contentType] == "application/json", body.count >= smallestCompressed,
           let compressed = GzipEncoder().compress(body, finish: true) {
            headers[.contentEncoding] = "gzip"
            bytes = compressed
        }
        headers[.contentLength] = "\(bytes.count)"
        guard !bodyless else { return Response(status: answer.status, headers: headers) }
        return Response(status: answer.status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// A body of several chunks, written (and compressed) as the client
    /// reads it; for `HEAD`, written only to be measured.
    private static func streamed(first: [UInt8], second: [UInt8], rest: OSCQueryNamespace.JSONStream,
                                 status: HTTPResponse.Status, headers: HTTPFields, gzip: Bool,
                                 bodyless: Bool) async -> Response {
        var headers = headers
        if gzip { headers[.contentEncoding] = "gzip" }
        /// Calls `send` with each chunk of the body as it is to be sent.
        @Sendable func produce(_ send: ([UInt8]) async throws -> Void) async throws {
            var stream = rest
            let encoder = gzip ? GzipEncoder() : nil
            var chunk: [UInt8]? = first
            var following: [UInt8]? = second
            while let current = chunk {
                let last = following == nil
                if let encoder {
                    // zlib failing (out of memory): end the connection rather
                    // than finish a body that cannot be unpacked.
                    guard let compressed = encoder.compress(current, finish: last) else {
                        throw OSCQueryServerError.compressionFailed
                    }
                    if !compressed.isEmpty { try await send(compressed) }
                } else {
                    try await send(current)
                }
                chunk = following
                following = last ? nil : stream.next()
            }
        }
        if bodyless {
            // The length GET would send (chunked): written only to be counted.
            var length = 0
            do {
                try await produce { length += $0.count }
                headers[.contentLength] = "\(length)"
            } catch {}
            return Response(status: status, headers: headers)
        }
        return Response(status: status, headers: headers, body: ResponseBody { writer in
            try await produce { chunk in try await writer.write(ByteBuffer(bytes: chunk)) }
            try await writer.finish(nil)
        })
    }
}
