#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The header bounds hold for every request on a connection, not only its
/// first (docs/access.md, "The HTTP port").
extension Integration.HTTPBoundsTests {
    static let firstRequest = Array("GET /page/ HTTP/1.1\r\nHost: rig\r\n\r\n".utf8)

    /// Sends `bytes` on a non-blocking `fd` while reading what comes back,
    /// until `done(answer)`, the connection closes, or `timeout`; the answer
    /// and whether the connection was closed.
    static func exchange(_ fd: Int32, sending bytes: [UInt8], timeout: Duration,
                         until done: ([UInt8]) -> Bool = { _ in false }) -> (answer: [UInt8], closed: Bool) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var sent = 0, answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline && !done(answer) {
            if sent < bytes.count {
                let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
                if n > 0 { sent += n }
            }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 10) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 || (count < 0 && errno != EAGAIN) { return (answer, true) }
            if count > 0 { answer += buffer[0..<count] }
        }
        return (answer, false)
    }

    /// A connection to the rig's HTTP port whose first request has been answered.
    static func afterAFirstRequest(_ rig: CrosspointRig) throws -> Int32 {
        let fd = connect(rig.httpPort, sending: firstRequest)
        try #require(fd >= 0)
        let first = exchange(fd, sending: [], timeout: .seconds(5)) { String(decoding: $0, as: UTF8.self).contains("</html>") }
        guard String(decoding: first.answer, as: UTF8.self).hasPrefix("HTTP/1.1 200") else {
            close(fd)
            throw RigError("the first request's answer: \(String(decoding: first.answer.prefix(200), as: UTF8.self))")
        }
        return fd
    }

    @Test func aSlowSecondRequestIsClosedAtTheHeaderDeadline() async throws {
        try await withRig { rig in
            let fd = try Self.afterAFirstRequest(rig)
            defer { close(fd) }
            // The second request, a byte a second: each byte would keep an idle timeout away.
            let start = ContinuousClock.now
            var closed = false
            for byte in Array("GET /page/ HTTP/1.1\r\nHost: rig\r\nUser-Agent: slow".utf8) {
                if Self.exchange(fd, sending: [byte], timeout: .seconds(1)).closed { closed = true; break }
                if ContinuousClock.now - start > .seconds(15) { break }
            }
            let took = ContinuousClock.now - start
            print("a second request trickled a byte a second: closed \(closed) after \(took)")
            #expect(closed && took < .seconds(10), "closed: \(closed) after \(took)")
            try await rig.ping()
        }
    }

    @Test func aFourMegabyteSecondHeaderIsAnswered431() async throws {
        try await withRig { rig in
            let fd = try Self.afterAFirstRequest(rig)
            defer { close(fd) }
            let huge = Array("GET /page/ HTTP/1.1\r\nHost: rig\r\nX-Padding: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 4 << 20)
            let (answer, _) = Self.exchange(fd, sending: huge, timeout: .seconds(10)) {
                String(decoding: $0, as: UTF8.self).contains("HTTP/1.1 431")
            }
            let text = String(decoding: answer, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 431"), "the second request's answer: \(text.prefix(200))")
            try await rig.ping()
        }
    }
}
