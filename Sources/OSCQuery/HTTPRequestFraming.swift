/// Where each request on an HTTP/1.1 connection begins and ends, told from
/// its bytes one at a time, before any HTTP decoding (`HTTPConnectionGuard`):
/// a header runs to its blank line; a body, if the header gives a
/// `Content-Length`, runs that many bytes; the next request's header
/// follows. Only what the framing needs is kept: the first bytes of the
/// line being read.
struct HTTPRequestFraming {
    enum Event: Equatable {
        case none
        /// The first byte of a request's header.
        case headerBegins
        /// The last byte of a request's header (its blank line).
        case headerEnds
        /// The header has grown past the limit before its blank line.
        case tooLarge
        /// The header announces a body without a length (`Transfer-Encoding`).
        case lengthRequired
    }

    private enum Phase {
        case header(seen: Int)
        case body(left: Int)
    }

    private var phase = Phase.header(seen: 0)
    /// The line being read, lowercased, at most `kept` bytes; its length in all.
    private var line: [UInt8] = []
    private var lineLength = 0
    private var sawRequestLine = false
    private var contentLength = 0
    private var chunked = false
    private static let kept = 64

    mutating func take(_ byte: UInt8, headerLimit: Int) -> Event {
        switch phase {
        case .body(let left):
            phase = left > 1 ? .body(left: left - 1) : .header(seen: 0)
            return .none
        case .header(let seen):
            guard seen < headerLimit else { return .tooLarge }
            phase = .header(seen: seen + 1)
            let event = headerByte(byte)
            return seen == 0 && event == .none ? .headerBegins : event
        }
    }

    private mutating func headerByte(_ byte: UInt8) -> Event {
        switch byte {
        case UInt8(ascii: "\r"):
            return .none
        case UInt8(ascii: "\n"):
            defer { line.removeAll(keepingCapacity: true); lineLength = 0 }
            guard lineLength > 0 else {
                // Empty lines before a request line are allowed (RFC 9112, 2.2).
                guard sawRequestLine else { return .none }
                return endHeader()
            }
            if !sawRequestLine {
                sawRequestLine = true
            } else if let value = Self.value(of: "content-length", in: line) {
                contentLength = Int(String(decoding: value, as: UTF8.self)) ?? 0
            } else if Self.value(of: "transfer-encoding", in: line) != nil {
                chunked = true
            }
            return .none
        default:
            lineLength += 1
            if line.count < Self.kept { line.append(byte | (byte >= 0x41 && byte <= 0x5A ? 0x20 : 0)) }
            return .none
        }
    }

    private mutating func endHeader() -> Event {
        defer { sawRequestLine = false; contentLength = 0; chunked = false }
        guard !chunked else { return .lengthRequired }
        phase = contentLength > 0 ? .body(left: contentLength) : .header(seen: 0)
        return .headerEnds
    }

    /// The value of a header field line named `name`, spaces trimmed; nil for another field.
    private static func value(of name: String, in line: [UInt8]) -> ArraySlice<UInt8>? {
        let name = Array(name.utf8)
        guard line.count > name.count, line.starts(with: name), line[name.count] == UInt8(ascii: ":") else { return nil }
        var value = line[(name.count + 1)...]
        while value.first == UInt8(ascii: " ") || value.first == UInt8(ascii: "\t") { value = value.dropFirst() }
        while value.last == UInt8(ascii: " ") || value.last == UInt8(ascii: "\t") { value = value.dropLast() }
        return value
    }
}
