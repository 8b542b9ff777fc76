import ArgumentParser
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
        Exit status 1 when the server replied /error, or a message could not be sent.
        """)

    @Option(help: "Host the rig runs on.")
    var host = "127.0.0.1"

    @Option(help: "Its OSC port.")
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

    func validate() throws {
        guard wait >= 0 && wait.isFinite else { throw ValidationError("--wait must be 0 or more seconds") }
        guard (1...65535).contains(port) else { throw ValidationError("--port must be 1-65535") }
    }

    func run() throws {
        let packet: OSCPacket
        if bundle {
            let messages = try ([address] + arguments).map { text in
                let words = text.split(separator: " ").map(String.init)
                guard let first = words.first else { throw ValidationError("empty message in bundle") }
                return OSCMessage(first, try Self.typed(Array(words.dropFirst()), types: nil))
            }
            packet = .bundle(messages)
        } else {
            packet = .message(OSCMessage(address, try Self.typed(arguments, types: types)))
        }
        let client = try OSCClient(host: host, port: port)
        guard client.send(packet) else {
            print("crosspoint send: could not send to \(host):\(port)")
            throw ExitCode.failure
        }
        let replies = client.receive(for: wait)
        for reply in replies { print(reply) }
        if replies.contains(where: { $0.address == "/error" }) { throw ExitCode.failure }
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
