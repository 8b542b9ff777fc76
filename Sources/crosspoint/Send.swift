import ArgumentParser
import Catalogue
import OSC

struct Send: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send one OSC message (or a bundle) and print the replies.",
        discussion: """
        Arguments are typed by their look: whole numbers are ints (i), other numbers \
        floats (f), true/false are T/F, anything else a string (s). --types forces \
        them, one letter per argument (i f d h s S T F N).
        Examples:
          crosspoint send /matrix/3/5 0.5
          crosspoint send /source/2/pan -1 2.5
          crosspoint send --wait 1 /status
          crosspoint send --bundle '/matrix/1/1 0' '/matrix/1/2 1'
          crosspoint send --host stage-left.local --port 9000 /ping
        Exit status 1 when the server replied /error, or a message could not be \
        sent; 2 when a query (a message without arguments) or /ping got no answer \
        within --wait, or the host said nothing listens on the port.
        """)

    @Option(help: "Host the rig runs on: a name, an IPv4 or IPv6 address, or HOST:PORT ([IPv6]:PORT).")
    var host = "127.0.0.1"

    @Option(help: "Its OSC port (unless --host names one).")
    var port = 9000

    @Option(help: "Seconds to wait for replies, printed one per line.")
    var wait: Double = 0.1

    @Option(help: "Type tags to force, one letter per argument (e.g. 'if').")
    var types: String?

    @Flag(help: "Send every message as one bundle; each message is a quoted 'ADDRESS ARGS…'.")
    var bundle = false

    @Argument(help: "The OSC address (with --bundle: the first message).")
    var address: String

    @Argument(parsing: .allUnrecognized, help: "The arguments (with --bundle: more messages).")
    var arguments: [String] = []

    /// Checked here, not in `run`, so that a mistake prints `send`'s usage.
    func validate() throws {
        guard wait >= 0 && wait.isFinite else { throw ValidationError("--wait must be 0 or more seconds") }
        guard (1...65535).contains(port) else { throw ValidationError("--port must be 1-65535") }
        _ = try destination()
        _ = try packet()
    }

    /// Nothing answered: a status of its own.
    static let noAnswer = ExitCode(2)

    func run() throws {
        let packet = try packet()
        let (host, port) = try destination()
        let client: OSCClient
        do {
            client = try OSCClient(host: host, port: port)
        } catch {
            print("crosspoint send: \(error)")
            throw ExitCode.failure
        }
        let where_ = "\(client.target)"
        guard client.send(packet) else {
            print(client.refused ? Self.nothingListens(where_, host: host) : "crosspoint send: could not send to \(where_)")
            throw client.refused ? Self.noAnswer : ExitCode.failure
        }
        let replies = client.receive(for: wait)
        for reply in replies { print(reply) }
        if replies.contains(where: { $0.address == "/error" }) { throw ExitCode.failure }
        if client.refused {
            print(Self.nothingListens(where_, host: host))
            throw Self.noAnswer
        }
        // A query or /ping expects an answer; a change is answered only when refused.
        if replies.isEmpty && Self.expectsAnswer(packet) {
            print("crosspoint send: nothing answered from \(where_) within \(wait) s (is the rig running, on that port?)")
            throw Self.noAnswer
        }
    }

    /// The host and port to send to: `--host` may carry the port itself.
    func destination() throws -> (host: String, port: Int) {
        var (name, number) = (host, port)
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            // [IPv6]:PORT or [IPv6]
            name = String(host[host.index(after: host.startIndex)..<close])
            let rest = host[host.index(after: close)...]
            if rest.hasPrefix(":") {
                guard let given = Int(rest.dropFirst()) else { throw ValidationError("--host \(host): no port after ']:'") }
                number = given
            }
        } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
            // NAME:PORT or IPv4:PORT (an IPv6 address has more colons)
            guard let given = Int(host[host.index(after: colon)...]) else {
                throw ValidationError("--host \(host): the part after ':' is not a port")
            }
            (name, number) = (String(host[..<colon]), given)
        }
        guard (1...65535).contains(number) else { throw ValidationError("the port must be 1-65535, not \(number)") }
        guard SocketAddress.resolve(host: name, port: number) != nil else {
            throw ValidationError("--host \(name): no such host (a name, an IPv4 or an IPv6 address)")
        }
        return (name, number)
    }

    /// The message, or the bundle, with its arguments typed.
    func packet() throws -> OSCPacket {
        guard bundle else { return .message(OSCMessage(address, try Self.typed(arguments, types: types))) }
        let messages = try ([address] + arguments).map { text in
            let words = text.split(separator: " ").map(String.init)
            guard let first = words.first else { throw ValidationError("empty message in bundle") }
            return OSCMessage(first, try Self.typed(Array(words.dropFirst()), types: nil))
        }
        return .bundle(messages)
    }

    /// Whether the rig answers what is sent: a command the catalogue says
    /// answers (`/ping`, `/status`, `/preset/…`), a preset on a button, or a
    /// query (a parameter's address without arguments); a change is
    /// answered only with /error.
    static func expectsAnswer(_ packet: OSCPacket) -> Bool {
        let commands = Catalogue.commands(inputs: 1, outputs: 1)
        return packet.messages.contains { message in
            if let command = commands.first(where: { $0.address == message.address }) { return command.answers }
            if message.address.hasPrefix("/preset/recall/") { return true }
            return message.arguments.isEmpty && !message.address.hasSuffix("/delta")
        }
    }

    static func nothingListens(_ destination: String, host: String) -> String {
        let hint = host.contains(":") ? " (serve listens on IPv4 only by default: start it with --bind :: for IPv6 too)" : ""
        return "crosspoint send: nothing listens at \(destination): its host refused the packet\(hint)"
    }

    /// Types each word by its look, or by `types` when given.
    static func typed(_ words: [String], types: String?) throws -> [OSCArgument] {
        guard let types else { return words.map(guessed) }
        guard types.count == words.count else {
            throw ValidationError("--types has \(types.count) letters for \(words.count) arguments")
        }
        return try zip(types, words).map { tag, word in
            func fail() -> ValidationError { ValidationError("'\(word)' is not a valid '\(tag)' argument") }
            switch tag {
            case "i": guard let v = Int32(word) else { throw fail() }; return .int32(v)
            case "h": guard let v = Int64(word) else { throw fail() }; return .int64(v)
            case "f": guard let v = Float(word) else { throw fail() }; return .float(v)
            case "d": guard let v = Double(word) else { throw fail() }; return .double(v)
            case "s": return .string(word)
            case "S": return .symbol(word)
            case "T": return .bool(true)
            case "F": return .bool(false)
            case "N": return .nil
            default: throw ValidationError("unknown type letter '\(tag)'")
            }
        }
    }

    static func guessed(_ word: String) -> OSCArgument {
        if let v = Int32(word) { return .int32(v) }
        if let v = Float(word) { return .float(v) }
        if word == "true" { return .bool(true) }
        if word == "false" { return .bool(false) }
        return .string(word)
    }
}
