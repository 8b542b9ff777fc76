import HTTPTypes
import HummingbirdWSClient
import Logging
import OSC
import OSCOracle

/// A real WebSocket client (HummingbirdWSClient) run against the server
/// under test, with a deadline so that a missing frame fails the test
/// instead of hanging it.
enum WebSocketProbe {
    struct Timeout: Error {}
    struct Unexpected: Error, CustomStringConvertible { var description: String }

    static let logger: Logger = {
        var logger = Logger(label: "oscquery-test-client")
        logger.logLevel = .warning
        return logger
    }()

    /// Connects to `ws://127.0.0.1:port/` and runs `body` on the connection;
    /// the connection closes when `body` returns.
    static func run(port: Int, headers: HTTPFields = [:], timeout: Duration = .seconds(15),
                    _ body: @escaping @Sendable (WebSocketInboundStream, WebSocketOutboundWriter) async throws -> Void)
        async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/",
                                                  configuration: .init(additionalHeaders: headers),
                                                  logger: logger) { inbound, outbound, _ in
                    try await body(inbound, outbound)
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw Timeout()
            }
            try await group.next()
            group.cancelAll()
        }
    }

    static func command(_ command: String, _ path: String) -> WebSocketOutboundWriter.OutboundFrame {
        .text(#"{"COMMAND":"\#(command)","DATA":"\#(path)"}"#)
    }

    /// The next message, which must be a text frame.
    static func nextText(_ messages: inout WebSocketInboundMessageStream.AsyncIterator) async throws -> String {
        guard let message = try await messages.next() else { throw Unexpected(description: "connection closed") }
        guard case .text(let text) = message else { throw Unexpected(description: "not text: \(message)") }
        return text
    }

    /// The next message, which must be a binary frame holding one OSC message.
    static func nextOSC(_ messages: inout WebSocketInboundMessageStream.AsyncIterator) async throws -> OSCMessage {
        guard let message = try await messages.next() else { throw Unexpected(description: "connection closed") }
        guard case .binary(let buffer) = message else { throw Unexpected(description: "not binary: \(message)") }
        guard case .message(let osc) = try OSCOracle.decodeProduct(Array(buffer.readableBytesView)) else {
            throw Unexpected(description: "a bundle")
        }
        return osc
    }
}
