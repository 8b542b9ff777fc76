#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// `crosspoint send` tells the truth: nothing answering a query or `/ping`,
/// and a host that says nothing listens, are each one line and a status of
/// their own (2); `--host` takes HOST:PORT; a mistake prints `send`'s usage.
extension Integration {
@Suite struct SendTests {
    static func send(_ words: [String]) async throws -> (String, ChildProcess.Termination) {
        let (output, errors, status) = try await sendApart(words)
        return (output + errors, status)
    }

    /// Standard output and standard error apart.
    static func sendApart(_ words: [String]) async throws -> (String, String, ChildProcess.Termination) {
        let tool = try ChildProcess(executable: CrosspointRig.binary, arguments: ["send"] + words, label: "crosspoint send")
        let status = try await tool.waitForExit(timeout: .seconds(10))
        return (tool.standardOutput, tool.standardError, status)
    }

    /// Said on standard error (issue 34: it was on standard output, among the replies).
    @Test func aPortNobodyListensOnIsSaidSo() async throws {
        let (fd, port) = try StartupTests.occupy(SOCK_DGRAM)
        close(fd) // free now: nothing listens there
        let (output, errors, status) = try await Self.sendApart(["--port", "\(port)", "--wait", "0.5", "/ping"])
        #expect(status == .exited(2), "\(output)\(errors)")
        #expect(output.isEmpty, "\(output)")
        #expect(errors == "crosspoint send: nothing listens at 127.0.0.1:\(port): its host refused the packet\n", "\(errors)")
    }

    @Test func aQueryNothingAnswersIsSaidSoButAChangeIsNot() async throws {
        let (fd, port) = try StartupTests.occupy(SOCK_DGRAM) // bound, never answers
        defer { close(fd) }
        let (output, status) = try await Self.send(["--port", "\(port)", "--wait", "0.3", "/ping"])
        #expect(status == .exited(2), "\(output)")
        #expect(output == "crosspoint send: nothing answered from 127.0.0.1:\(port) within 0.3 s (is the rig running, on that port?)\n",
                "\(output)")
        let (changed, changeStatus) = try await Self.send(["--port", "\(port)", "--wait", "0.2", "/source/1/volume", "0.5"])
        #expect(changeStatus == .exited(0) && changed.isEmpty, "a change is answered only when refused: \(changed)")
        let (cleared, clearStatus) = try await Self.send(["--port", "\(port)", "--wait", "0.2", "/matrix/clear"])
        #expect(clearStatus == .exited(0) && cleared.isEmpty, "an action answers nothing: \(cleared)")
    }

    @Test func hostTakesAPortAndMistakesPrintSendsUsage() async throws {
        try await withRig { rig in
            let (pong, status) = try await Self.send(["--host", "127.0.0.1:\(rig.oscPort)", "--wait", "1", "/ping"])
            #expect(status == .exited(0) && pong.hasPrefix("/pong"), "\(pong)")
            let (named, namedStatus) = try await Self.send(["--host", "localhost", "--port", "\(rig.oscPort)", "--wait", "1", "/ping"])
            #expect(namedStatus == .exited(0) && named.hasPrefix("/pong"), "\(named)")
        }
        let (usage, status) = try await Self.send(["--types", "i", "/source/1/volume", "0.5"])
        #expect(status == .exited(64), "\(usage)")
        #expect(usage.contains("'0.5' is not a valid 'i' argument") && usage.contains("Usage: crosspoint send"), "\(usage)")
    }

    /// A time `--at` cannot read is a mistake: `send`'s usage with a line
    /// naming it, status 64, and not a packet sent. The same message with a
    /// good `--at` does arrive, as a bundle, at the same socket.
    @Test func aBadAtSendsNothing() async throws {
        let (fd, port) = try StartupTests.occupy(SOCK_DGRAM) // bound: whatever is sent there waits in it
        defer { close(fd) }
        func waiting() -> [UInt8]? {
            var buffer = [UInt8](repeating: 0, count: 1500)
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            return count > 0 ? Array(buffer.prefix(count)) : nil
        }
        for bad in ["bad", "+soon", "-1", "+nan", "12"] {
            let (output, status) = try await Self.send(["--port", "\(port)", "--wait", "0", "--at=\(bad)", "/source/1/volume", "0.5"])
            #expect(status == .exited(64), "--at \(bad): \(output)")
            #expect(output.contains("Error: --at \(bad): ") && output.contains("Usage: crosspoint send"), "\(output)")
            #expect(waiting() == nil, "--at \(bad) sent a packet")
        }
        let (output, status) = try await Self.send(["--port", "\(port)", "--wait", "0", "--at", "+0.5", "/source/1/volume", "0.5"])
        #expect(status == .exited(0), "\(output)")
        let packet = try #require(waiting(), "a good --at sent nothing")
        #expect(packet.starts(with: Array("#bundle\0".utf8)))
    }
}

/// The names sources and outputs are given reach the patchbay: a JACK alias
/// of their port, `CLIENT:NAME`, kept up to date on rename.
@Suite struct PortAliasTests {
    static func aliases(_ jack: JackServer) async throws -> String {
        let lsp = try ChildProcess(executable: "jack_lsp", arguments: ["-A"], environment: jack.clientEnvironment, label: "jack_lsp")
        _ = try await lsp.waitForExit(timeout: .seconds(10))
        return lsp.standardOutput
    }

    /// The lines `jack_lsp -A` prints under `port` (its aliases).
    static func aliases(of port: String, in listing: String) -> [String] {
        let lines = listing.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == port }) else { return [] }
        return lines[(start + 1)...].prefix { $0.hasPrefix(" ") || $0.hasPrefix("\t") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    func waitFor(_ jack: JackServer, _ port: String, _ wanted: [String]) async throws -> [String] {
        var seen: [String] = []
        for _ in 0..<40 {
            seen = Self.aliases(of: port, in: try await Self.aliases(jack))
            if seen == wanted { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        return seen
    }

    @Test func aRenameShowsInJackLsp() async throws {
        try await withRig { rig in
            try await rig.sendAndSettle("/source/1/name", .string("Bass DI"))
            #expect(try await waitFor(rig.jack, "crosspoint:in_1", ["crosspoint:Bass DI"]) == ["crosspoint:Bass DI"])
            try await rig.sendAndSettle("/source/1/name", .string("Kick"))
            try await rig.sendAndSettle("/output/2/name", .string("Wedge 2"))
            #expect(try await waitFor(rig.jack, "crosspoint:in_1", ["crosspoint:Kick"]) == ["crosspoint:Kick"])
            #expect(try await waitFor(rig.jack, "crosspoint:out_2", ["crosspoint:Wedge 2"]) == ["crosspoint:Wedge 2"])
            // Back to the port's own name: no alias.
            try await rig.sendAndSettle("/source/1/name", .string("in_1"))
            #expect(try await waitFor(rig.jack, "crosspoint:in_1", []) == [])
        }
    }
}
}
