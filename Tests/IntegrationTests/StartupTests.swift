#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Start-up failures name what failed: the port and which server could not
/// listen, the JACK client name taken and the server, the server that is not
/// there; a JACK server the rig starts and that fails says why, in jackd's
/// own words in the rig's log.
extension Integration {
@Suite struct StartupTests {
    /// A socket bound to a free port on 127.0.0.1 (UDP or TCP, listening),
    /// held until closed.
    static func occupy(_ type: __socket_type) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(type.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        try #require(bound == 0)
        if type == SOCK_STREAM { listen(fd, 4) }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// `crosspoint serve` on `jack` with `arguments`, run until it exits (at most 20 s).
    static func serveUntilExit(_ jack: JackServer?, _ arguments: [String],
                               environment: [String: String] = [:]) async throws -> (ChildProcess.Termination, String) {
        let directory = try CrosspointRig.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = jack.map { ["--jack-server", $0.name, "--no-autostart"] } ?? []
        let serve = try ChildProcess(executable: CrosspointRig.binary,
                                     arguments: ["serve", "--no-advertise"] + server + arguments + CrosspointRig.fileArguments(directory),
                                     environment: environment, label: "crosspoint serve (failing)")
        defer { serve.terminate() }
        let status = try await serve.waitForExit(timeout: .seconds(25))
        return (status, serve.standardError)
    }

    /// A JACK server the rig would start with a period, rate or backend it
    /// cannot have is refused before anything starts, naming the flag.
    @Test(arguments: [
        (["--autostart-period", "100"], "--autostart-period must be a power of two, 16-4096"),
        (["--autostart-period", "8192"], "--autostart-period must be a power of two, 16-4096"),
        (["--autostart-rate", "1"], "--autostart-rate must be 8000-384000"),
        (["--autostart-driver", "alsa; rm"], "--autostart-driver must be a backend's name"),
        // Arguments serve does not declare go to the kinds' own flags
        // (`Serve+Kinds.swift`), and are refused as ArgumentParser refuses them.
        (["--input", "4"], "Unknown option '--input'. Did you mean '--inputs'?"),
        (["--testbuses", "3"], "Unknown option '--testbuses'"),
        (["stray"], "Unexpected argument 'stray'"),
    ])
    func anAutostartSettingOutOfRangeIsRefused(_ flags: [String], _ message: String) async throws {
        // A server no one runs and no autostart: were the flags let through,
        // the rig would fail later, with another status and message.
        let (status, log) = try await Self.serveUntilExit(nil, flags + [
            "--jack-server", "xp-never-\(getpid())", "--no-autostart", "--osc-port", "0", "--http-port", "0",
        ])
        #expect(status == .exited(64), "\(log)")
        #expect(log.contains(message), "\(log)")
    }

    @Test func anHTTPPortInUseIsNamed() async throws {
        let jack = try await JackServer.start()
        defer { jack.stop() }
        let (fd, port) = try Self.occupy(SOCK_STREAM)
        defer { close(fd) }
        let (status, log) = try await Self.serveUntilExit(jack, ["--osc-port", "0", "--http-port", "\(port)"])
        #expect(status == .exited(1))
        #expect(log.contains("cannot listen for HTTP (the page, OSCQuery) on TCP 0.0.0.0:\(port): Address already in use"),
                "\(log)")
        #expect(log.contains("--http-port P, or --no-http"), "\(log)")
    }

    @Test func anOSCPortInUseIsNamed() async throws {
        let jack = try await JackServer.start()
        defer { jack.stop() }
        let (fd, port) = try Self.occupy(SOCK_DGRAM)
        defer { close(fd) }
        let (status, log) = try await Self.serveUntilExit(jack, ["--osc-port", "\(port)", "--http-port", "0"])
        #expect(status == .exited(1))
        #expect(log.contains("cannot listen for OSC on UDP 0.0.0.0:\(port): Address already in use"), "\(log)")
    }

    @Test func aJACKClientNameTakenIsNamedWithItsServer() async throws {
        let jack = try await JackServer.start()
        defer { jack.stop() }
        let directory = try CrosspointRig.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try ChildProcess(executable: CrosspointRig.binary,
                                     arguments: ["serve", "--no-advertise", "--jack-server", jack.name, "--no-autostart",
                                                 "--jack-name", "trial", "--osc-port", "0", "--http-port", "0"]
                                         + CrosspointRig.fileArguments(directory),
                                     label: "crosspoint serve (trial)")
        defer { first.terminate() }
        _ = try await first.waitForOutput(containing: "ready: OSC on UDP port", timeout: .seconds(20))
        let (status, log) = try await Self.serveUntilExit(jack, ["--jack-name", "trial", "--osc-port", "0", "--http-port", "0"])
        #expect(status == .exited(1))
        #expect(log.contains("the JACK client name 'trial' is already taken on server '\(jack.name)'"), "\(log)")
        #expect(log.contains("--jack-name NAME"))
    }

    /// A server the rig starts that cannot start: jackd's own reason is in
    /// the rig's log and in the error that ends the start, at once, not after 10 s.
    @Test func aStartedServerThatFailsSaysWhy() async throws {
        let name = "xp-fail-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let started = ContinuousClock.now
        let (status, log) = try await Self.serveUntilExit(nil, ["--jack-server", name, "--autostart-driver", "alsa",
                                                                "--autostart-device", "hw:97", "--osc-port", "0", "--no-http"],
                                                          environment: ["JACK_NO_AUDIO_RESERVATION": "1"])
        #expect(status == .exited(1))
        let jackdLines = log.split(separator: "\n").filter { $0.contains(" jackd: ") }
        #expect(!jackdLines.isEmpty, "jackd's output is in the log: \(log)")
        #expect(log.contains("cannot start: the JACK server it started (jackd -n \(name)"), "\(log)")
        #expect(log.contains("hw:97"), "\(log)")
        #expect(ContinuousClock.now - started < .seconds(9), "told when jackd ended, not after the 10 s wait")
    }
}
}
