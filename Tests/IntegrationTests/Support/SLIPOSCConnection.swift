#if canImport(Glibc)
import Glibc
#endif

/// A minimal OSC 1.1 client over TCP, as TouchOSC's and QLab's TCP options
/// speak it: every packet a SLIP frame (RFC 1055). Its SLIP is written here
/// from the RFC, not taken from the product, and OSC goes through the
/// oracle, so the rig's framing is checked against code it does not share.
final class SLIPOSCConnection {
    static let end: UInt8 = 0xC0, escape: UInt8 = 0xDB, escapedEnd: UInt8 = 0xDC, escapedEscape: UInt8 = 0xDD

    enum Style {
        /// END before and after each packet.
        case doubleEnd
        /// END after each packet only.
        case singleEnd
    }

    private let fd: Int32
    /// Its socket, for tests that watch it close.
    var descriptor: Int32 { fd }
    /// Bytes read and not yet taken as a frame.
    private var pending: [UInt8] = []
    /// Every byte received so far, as it came (ENDs and escapes included).
    private(set) var onTheWire: [UInt8] = []

    init(port: Int) throws {
        fd = try connectToLoopback(tcpPort: port)
    }

    func close() { _ = Glibc.close(fd) }

    static func frame(_ bytes: [UInt8], style: Style = .doubleEnd) -> [UInt8] {
        var framed: [UInt8] = style == .doubleEnd ? [end] : []
        for byte in bytes {
            switch byte {
            case end: framed += [escape, escapedEnd]
            case escape: framed += [escape, escapedEscape]
            default: framed.append(byte)
            }
        }
        return framed + [end]
    }

    func send(_ packet: OSCTestClient.Packet, style: Style = .doubleEnd) throws {
        try sendRaw(Self.frame(OSCTestClient.encode(packet), style: style))
    }

    /// Bytes as they are, no framing added.
    func sendRaw(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw RigError("TCP send failed") }
            offset += n
        }
    }

    /// The next non-empty frame's messages, waiting up to 2 s.
    func receive() throws -> [OSCTestClient.ReceivedMessage] {
        let frame = try nextFrame()
        guard let messages = OSCTestClient.decode(datagram: Self.unescape(frame), sender: .init(port: 0), receivedAt: .now) else {
            throw RigError("a SLIP frame that is not OSC: \(frame)")
        }
        return messages
    }

    /// Reads until the server closes the connection (true), or `seconds` pass (false).
    func isClosedByServer(within seconds: Int) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        for _ in 0..<(seconds * 10) {
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return true }
        }
        return false
    }

    /// The bytes between the next two ENDs, escapes still in, skipping empty frames.
    private func nextFrame() throws -> [UInt8] {
        while true {
            if let close = pending.firstIndex(of: Self.end) {
                let body = Array(pending[..<close])
                pending.removeFirst(close + 1)
                if body.isEmpty { continue }
                return body
            }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 2000) > 0 else { throw RigError("no SLIP frame within 2 s") }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw RigError("TCP connection closed") }
            pending += chunk[0..<n]
            onTheWire += chunk[0..<n]
        }
    }

    private static func unescape(_ frame: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        var escaping = false
        for byte in frame {
            if escaping {
                bytes.append(byte == escapedEnd ? end : byte == escapedEscape ? escape : byte)
                escaping = false
            } else if byte == escape {
                escaping = true
            } else {
                bytes.append(byte)
            }
        }
        return bytes
    }
}
