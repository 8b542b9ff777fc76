import JSON

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

    /// Parses a text frame (with the strict reader of the rig's files);
    /// nil if it is not a JSON object with a `COMMAND` string. `DATA` is
    /// kept when it is a string (it is an object for some commands, such as
    /// PATH_RENAMED, which this server does not take); other keys are ignored.
    init?(json: String) {
        let read = try? JSONDocument.read(Array(json.utf8), failure: { $0 }) { (root) throws(JSONDocument.ParseError) -> (String, String?)? in
            guard let object = root.object, let command = object["COMMAND"]?.string else { return nil }
            return (command, object["DATA"]?.string)
        }
        guard let (command, data) = read ?? nil else { return nil }
        switch command {
        case "LISTEN": kind = .listen
        case "IGNORE": kind = .ignore
        default: kind = .other(command)
        }
        self.data = data
    }
}
