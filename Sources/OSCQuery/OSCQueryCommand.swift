#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A command a client sends over the WebSocket as a text frame:
/// `{"COMMAND": "LISTEN", "DATA": "/source/1/volume"}`.
struct OSCQueryCommand: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        /// Stream the values of exactly this address to the client.
        case listen
        /// Stop streaming this address.
        case ignore
        /// A command this server does not know (kept for the log).
        case other(String)
    }

    var kind: Kind
    /// The `DATA` string, if it is one.
    var data: String?

    init(kind: Kind, data: String?) {
        self.kind = kind
        self.data = data
    }

    /// Parses a text frame; nil if it is not a JSON object with a `COMMAND` string.
    init?(json: String) {
        guard let wire = try? JSONDecoder().decode(Wire.self, from: Data(json.utf8)) else { return nil }
        switch wire.command {
        case "LISTEN": kind = .listen
        case "IGNORE": kind = .ignore
        default: kind = .other(wire.command)
        }
        data = wire.data
    }

    private struct Wire: Decodable {
        var command: String
        var data: String?

        enum CodingKeys: String, CodingKey {
            case command = "COMMAND"
            case data = "DATA"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            command = try container.decode(String.self, forKey: .command)
            // DATA is an object for some commands (PATH_RENAMED); only strings matter here.
            data = try? container.decodeIfPresent(String.self, forKey: .data)
        }
    }
}
