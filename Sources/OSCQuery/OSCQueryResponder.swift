import Hummingbird
import HTTPTypes
import NIOCore

/// Answers OSCQuery's HTTP requests: `GET /path` for a node and everything
/// below it, `GET /path?ATTRIBUTE` for one attribute, `GET /?HOST_INFO`;
/// `HEAD` as `GET` without the body. Every answer lets pages of any origin
/// read it (`Access-Control-Allow-Origin: *`): the namespace is what any
/// client on the network may read, and changes go over the WebSocket, where
/// a page of another origin is read-only.
struct OSCQueryResponder: HTTPResponder {
    typealias Context = OSCQueryRequestContext

    let gate: OSCQueryAccessGate
    let hostName: OSCQueryHostName
    let oscIP: String?
    let oscPort: Int
    let oscTransport: String

    /// A response before it becomes one: the status and a JSON or text body.
    struct Answer: Equatable {
        var status: HTTPResponse.Status
        var json: String? = nil
        var text: String? = nil
    }

    func respond(to request: Request, context: Context) async throws -> Response {
        let host = context.remoteAddress?.peerHost ?? "?"
        guard gate.admit(host, for: "HTTP \(request.method) \(request.uri)") != .denied else {
            return Self.response(Answer(status: .forbidden, text: "forbidden"))
        }
        switch request.method {
        case .get, .head:
            let response = Self.response(answer(path: request.uri.path, query: request.uri.query,
                                                local: context.localAddress))
            return request.method == .head ? Self.withoutBody(response) : response
        case .options:
            // A browser's preflight: reading is all there is.
            var response = Self.response(Answer(status: .noContent))
            response.headers[.accessControlAllowMethods] = "GET, HEAD"
            response.headers[.accessControlAllowHeaders] = "*"
            return response
        default:
            var response = Self.response(Answer(status: .methodNotAllowed, text: "only GET and HEAD are served"))
            response.headers[.allow] = "GET, HEAD, OPTIONS"
            return response
        }
    }

    /// `HEAD`: the `GET` answer's status and header fields, its length, no body.
    static func withoutBody(_ response: Response) -> Response {
        var headers = response.headers
        headers[.contentLength] = "\(response.body.contentLength ?? 0)"
        return Response(status: response.status, headers: headers)
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
        guard let node = path == "/" ? model.namespace() : model.node(at: path) else {
            return Answer(status: .notFound, text: "no node at \(path)")
        }
        guard let attributeName else {
            return Answer(status: .ok, json: node.json)
        }
        guard let attribute = OSCQueryAttribute(rawValue: attributeName.uppercased()) else {
            return Answer(status: .badRequest, text: "unknown attribute \(attributeName)")
        }
        // The proposal: a query for an attribute the server does not support,
        // or for the VALUE of a node that is not readable, gets 204.
        guard attribute.isServed, attribute != .value || node.isReadable else {
            return Answer(status: .noContent)
        }
        return Answer(status: .ok, json: node.json(for: attribute))
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

    static func response(_ answer: Answer) -> Response {
        var headers = HTTPFields()
        headers[.accessControlAllowOrigin] = "*"
        let body: String
        if let json = answer.json {
            headers[.contentType] = "application/json"
            body = json
        } else if let text = answer.text {
            headers[.contentType] = "text/plain; charset=utf-8"
            body = text + "\n"
        } else {
            body = ""
        }
        guard answer.status != .noContent else { return Response(status: answer.status, headers: headers) }
        return Response(status: answer.status, headers: headers,
                        body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
