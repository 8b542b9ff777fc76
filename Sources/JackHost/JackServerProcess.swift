import Foundation
import Logging

/// A JACK server we started ourselves because none was running, so that a
/// new user sees the rig work on any machine. It is stopped when we exit.
final class JackServerProcess: @unchecked Sendable {
    private let process = Process()
    let driver: String

    /// Starts `jackd` in non-realtime mode. With the dummy backend no sound
    /// card is needed: `jackd -r -d dummy -r 48000 -p 64`.
    init(serverName: String?, driver: String, logger: Logger) throws {
        self.driver = driver
        process.executableURL = URL(fileURLWithPath: "/usr/bin/jackd")
        var arguments: [String] = []
        if let serverName { arguments += ["-n", serverName] }
        arguments += ["-r", "-d", driver]
        if driver == "dummy" { arguments += ["-r", "48000", "-p", "64"] }
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        logger.notice("no JACK server was running: started one (jackd \(arguments.joined(separator: " ")), pid \(process.processIdentifier))")
    }

    var isRunning: Bool { process.isRunning }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
