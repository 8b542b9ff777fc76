import JSON

/// A command sent over the WebSocket as a text frame:
/// `{"COMMAND":"LISTEN","DATA":"/source/1/volume"}`. Clients send LISTEN
/// and IGNORE; the server sends PATH_ADDED and PATH_REMOVED when its
/// namespace changes.
struct OSCQueryCommand: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        /// Stream the values of exactly this address to the client.
        case listen
        /// Stop streaming this address.
        case ignore
        /// From the server: a node (and everything below it) was added.
        case pathAdded
        /// From the server: a node (and everything below it) was removed.
        case pathRemoved
        /// A command this server does not know (kept for the log).
        case other(String)

        /// `COMMAND`'s text.
        var name: String {
            switch self {
            case .listen: "LISTEN"
            case .ignore: "IGNORE"
            case .pathAdded: "PATH_ADDED"
            case .pathRemoved: "PATH_REMOVED"
            case .other(let name): name
            }
        }
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
        case "PATH_ADDED": kind = .pathAdded
        case "PATH_REMOVED": kind = .pathRemoved
        default: kind = .other(command)
        }
        self.data = data
    }

    /// The text frame: `{"COMMAND":"PATH_ADDED","DATA":"/source/9"}`, keys
    /// in that order, no spaces; `DATA` left out when nil.
    var json: String {
        var out = JSONBytes()
        out.beginObject()
        out.key("COMMAND"); out.string(kind.name)
        if let data { out.key("DATA"); out.string(data) }
        out.endObject()
        return out.text
    }
}
