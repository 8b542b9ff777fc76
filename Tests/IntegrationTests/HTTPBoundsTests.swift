#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The HTTP port (the page, OSCQuery, WebSockets) holds only so much: a
/// phone on the venue Wi-Fi cannot exhaust the rig's memory or descriptors
/// with connections that never finish their request (docs/access.md, "The
/// HTTP port").
extension Integration {
@Suite(.serialized) struct HTTPBoundsTests {
    /// A TCP connection to 127.0.0.1:port that has sent `bytes`; -1 if none.
    static func connect(_ port: Int, sending bytes: [UInt8]) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); return -1 }
        var flags: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &flags, socklen_t(MemoryLayout<Int32>.size))
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return fd
    }

    /// Whether the other end has closed `fd` (a read gives 0 or an error at once).
    static func isClosed(_ fd: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) <= 0
    }

    static func residentKiB(_ pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    @Test func twoThousandSlowHalfRequestsAreClosedAndThePageStillServed() async throws {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < 4096 { limit.rlim_cur = min(4096, limit.rlim_max); setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) }
        try await withRig { rig in
            let before = Self.residentKiB(rig.crosspoint.pid)
            let half = Array("GET /page/ HTTP/1.1\r\nHost: rig\r\nUser-Agent: slow".utf8)
            var sockets: [Int32] = []
            defer { sockets.forEach { close($0) } }
            for _ in 0..<2000 {
                let fd = Self.connect(rig.httpPort, sending: half)
                if fd >= 0 { sockets.append(fd) }
            }
            #expect(sockets.count > 1900, "\(sockets.count) connections opened")
            try await Task.sleep(for: .milliseconds(500))
            let peak = Self.residentKiB(rig.crosspoint.pid)
            // The page and OSC still answer meanwhile, for everyone else (another
            // host: 127.0.0.2; the flooding host has its 64).
            let page = try ChildProcess(executable: "curl", arguments: ["-s", "-o", "/dev/null", "-w", "%{http_code}",
                                                                        "--interface", "127.0.0.2", "--max-time", "5",
                                                                        "http://127.0.0.1:\(rig.httpPort)/page/"])
            _ = try await page.waitForExit(timeout: .seconds(10))
            try await rig.ping()
            // Every one of them closed within 10 s: over the per-host limit at once, the rest at the header deadline.
            let deadline = ContinuousClock.now + .seconds(10)
            var open = sockets.count
            while ContinuousClock.now < deadline {
                open = sockets.filter { !Self.isClosed($0) }.count
                if open == 0 { break }
                try await Task.sleep(for: .milliseconds(250))
            }
            #expect(open == 0, "\(open) of \(sockets.count) still open after 10 s")
            #expect(page.standardOutput == "200", "the page during the flood: \(page.standardOutput)")
            #expect(peak - before < 20 * 1024, "resident memory grew \(peak - before) KiB")
        }
    }

    @Test func aOneMegabyteHeaderIsRefused() async throws {
        try await withRig { rig in
            let huge = Array("GET /page/ HTTP/1.1\r\nHost: rig\r\nX-Padding: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 1 << 20)
            let fd = Self.connect(rig.httpPort, sending: huge)
            try #require(fd >= 0)
            defer { close(fd) }
            var answer: [UInt8] = []
            let deadline = ContinuousClock.now + .seconds(5)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while ContinuousClock.now < deadline {
                var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&descriptor, 1, 100) > 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count <= 0 { break }
                answer += buffer[0..<count]
            }
            let text = String(decoding: answer, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 431"), "\(text.prefix(200))")
            try await rig.ping()
        }
    }
}
}
