#if canImport(Glibc)
import Glibc
#endif

/// A WebSocket client on a bare socket, for tests of a client that stops
/// reading: nothing reads it but the test (a WebSocket library reads on
/// its own). Sends OSC as masked binary frames; reads frames when asked.
final class RawWebSocket {
    let fd: Int32
    private var pending: [UInt8] = []

    /// Connects to the rig's HTTP port and upgrades; `receiveBuffer` bytes
    /// of kernel buffer to read into (small: the rig's queue fills sooner).
    init(port: Int, receiveBuffer: Int32? = nil) throws {
        fd = try connectToLoopback(tcpPort: port, receiveBuffer: receiveBuffer)
        try write(Array(("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8))
        while !pending.containsHeaderEnd {
            guard try fill(timeout: 5) else { Glibc.close(fd); throw RigError("no WebSocket upgrade answer") }
        }
        let end = pending.headerEnd!
        let head = String(decoding: pending[..<end], as: UTF8.self)
        pending.removeFirst(end)
        guard head.hasPrefix("HTTP/1.1 101") else { Glibc.close(fd); throw RigError("upgrade refused: \(head)") }
    }

    func close() { _ = Glibc.close(fd) }

    /// Sends one OSC packet as a masked binary frame.
    func send(_ packet: OSCTestClient.Packet) throws {
        let payload = OSCTestClient.encode(packet)
        var frame: [UInt8] = [0x82]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try write(frame)
    }

    /// The OSC messages of the binary frames that arrive, until `done`
    /// says so or `timeout` passes.
    func receive(timeout: Duration, until done: ([OSCTestClient.ReceivedMessage]) -> Bool) throws -> [OSCTestClient.ReceivedMessage] {
        var messages: [OSCTestClient.ReceivedMessage] = []
        let deadline = ContinuousClock.now + timeout
        while true {
            while let payload = nextFrame() {
                messages += OSCTestClient.decode(datagram: payload, sender: .init(port: 0), receivedAt: .now) ?? []
            }
            if done(messages) || ContinuousClock.now >= deadline { return messages }
            _ = try fill(timeout: 0.2)
        }
    }

    /// Reads and keeps up to `count` bytes that have arrived, without waiting.
    func drip(_ count: Int) {
        var chunk = [UInt8](repeating: 0, count: count)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if n > 0 { pending += chunk[0..<n] }
    }

    /// The next binary frame's payload, if one is whole in `pending`.
    private func nextFrame() -> [UInt8]? {
        while pending.count >= 2 {
            var length = Int(pending[1] & 0x7F), offset = 2
            if length == 126 {
                guard pending.count >= 4 else { return nil }
                length = Int(pending[2]) << 8 | Int(pending[3]); offset = 4
            } else if length == 127 {
                guard pending.count >= 10 else { return nil }
                length = (2..<10).reduce(0) { $0 << 8 | Int(pending[$1]) }; offset = 10
            }
            guard pending.count >= offset + length else { return nil }
            let opcode = pending[0] & 0x0F
            let payload = Array(pending[offset..<(offset + length)])
            pending.removeFirst(offset + length)
            if opcode == 2 { return payload }
        }
        return nil
    }

    private func write(_ bytes: [UInt8]) throws {
        guard bytes.withUnsafeBytes({ Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else {
            throw RigError("WebSocket send failed")
        }
    }

    /// Reads what arrives within `timeout` seconds; false if nothing did.
    private func fill(timeout: Double) throws -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(timeout * 1000)) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { throw RigError("WebSocket closed") }
        pending += chunk[0..<n]
        return true
    }
}

private extension [UInt8] {
    /// Where an HTTP header's blank line ends.
    var headerEnd: Int? {
        guard count >= 4 else { return nil }
        return (3..<count).first { self[$0 - 3] == 13 && self[$0 - 2] == 10 && self[$0 - 1] == 13 && self[$0] == 10 }.map { $0 + 1 }
    }
    var containsHeaderEnd: Bool { headerEnd != nil }
}
