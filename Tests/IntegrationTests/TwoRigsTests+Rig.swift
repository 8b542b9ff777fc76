import Foundation
import Testing

/// TwoRigsTests' rig: a `crosspoint serve` on one side of the link.
extension Integration.TwoRigsTests {
    /// A `crosspoint serve` inside one side of the link, on that side's
    /// server, with two OSC clients of the test's in the same namespace:
    /// one for queries and changes, one for pings, so that neither takes
    /// the other's answers.
    struct Rig: Sendable {
        let side: Side
        let process: ChildProcess
        let oscPort: Int
        let osc: OSCTestClient
        let pinger: OSCTestClient
        let directory: URL

        static func start(_ side: Side, in network: LinkedNamespaces, jack: JackServer,
                          arguments: [String]) async throws -> Rig {
            let directory = try CrosspointRig.makeDirectory()
            do {
                let process = try network.run(
                    side, CrosspointRig.binary,
                    ["serve", "--jack-server", jack.name, "--no-autostart", "--osc-port", "0", "--http-port", "0",
                     "--inputs", "2", "--outputs", "2", "--no-advertise"] + CrosspointRig.fileArguments(directory) + arguments,
                    label: "crosspoint serve")
                do {
                    let port = try await CrosspointRig.oscPort(of: process)
                    return Rig(side: side, process: process, oscPort: port, osc: try network.oscClient(side, port: port),
                               pinger: try network.oscClient(side, port: port), directory: directory)
                } catch {
                    process.terminate()
                    throw error
                }
            } catch {
                try? FileManager.default.removeItem(at: directory)
                throw error
            }
        }

        func stop() {
            osc.close()
            pinger.close()
            process.terminate()
            try? FileManager.default.removeItem(at: directory)
        }

        /// The rig's answer to a query.
        func query(_ address: String) async throws -> [OSCTestClient.Argument] {
            _ = try osc.drain()
            try osc.send(address)
            return try await osc.waitFor(address: address, timeout: .seconds(5)).arguments
        }

        /// One figure of `/status` (`/status/NAME`).
        func status(_ name: String) async throws -> Double {
            _ = try osc.drain()
            try osc.send("/status")
            let reply = try await osc.waitFor(address: "/status/\(name)", timeout: .seconds(5))
            guard let value = reply.argument(0)?.numericValue else { throw RigError("/status/\(name): \(reply)") }
            return value
        }

        /// Sends a change and waits until the rig has handled it.
        func set(_ address: String, _ arguments: OSCTestClient.Argument...) async throws {
            try osc.send(address, arguments: arguments)
            try osc.send("/ping")
            _ = try await osc.waitFor(address: "/pong", timeout: .seconds(5))
        }
    }
}
