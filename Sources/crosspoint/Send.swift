import ArgumentParser
import Glibc
import Catalogue
import OSC

struct Send: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send one OSC message (or a bundle) to one rig or several, and print the replies.",
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
          crosspoint send --host foh.local --host monitors.local /matrix/1/1 0.5
          crosspoint send --host 10.0.0.1 --host 10.0.0.2 --at +0.5 --bundle '/preset/recall song2' '/master/db -3'
        With several --host, the same message or bundle goes to each (one time \
        tag for all with --at), and each reply line is prefixed by its rig, \
        'HOST:PORT '. Exit status 1 when a server replied /error, or a message \
        could not be sent; 2 when a query (a message without arguments) or /ping \
        got no answer within --wait from some rig, or a host said nothing listens \
        on the port.
        """)

    @Option(help: "Host a rig runs on: a name, an IPv4 or IPv6 address, or HOST:PORT ([IPv6]:PORT); repeat it for several rigs (default 127.0.0.1).")
    var host: [String] = []

    @Option(help: "Its OSC port (unless --host names one).")
    var port = 9000

    @Option(help: "Seconds to wait for replies, printed one per line.")
    var wait: Double = 0.1

    @Option(help: "Type tags to force, one letter per argument (e.g. 'if').")
    var types: String?

    @Flag(help: "Send every message as one bundle; each message is a quoted 'ADDRESS ARGS…'.")
    var bundle = false

    @Option(help: "Send it as a bundle time-tagged TIME: +SECONDS from now (+0.5), or a Unix time in seconds; each rig acts on it at that time on its own clock.")
    var at: String?

    @Argument(help: "The OSC address (with --bundle: the first message).")
    var address: String

    @Argument(parsing: .allUnrecognized, help: "The arguments (with --bundle: more messages).")
    var arguments: [String] = []

    /// Checked here, not in `run`, so that a mistake prints `send`'s usage.
    func validate() throws {
        guard wait >= 0 && wait.isFinite else { throw ValidationError("--wait must be 0 or more seconds") }
        guard (1...65535).contains(port) else { throw ValidationError("--port must be 1-65535") }
        _ = try destinations()
        _ = try Self.timeTag(at, now: 0)
        _ = try packet()
    }

    /// Nothing answered: a status of its own.
    static let noAnswer = ExitCode(2)

    func run() throws {
        let packet = try packet()
        let rigs = try destinations().map { host, port -> (client: OSCClient, name: String, host: String) in
            do {
                let client = try OSCClient(host: host, port: port)
                return (client, "\(client.target)", host)
            } catch {
                Self.complain("crosspoint send: \(error)")
                throw ExitCode.failure
            }
        }
        // Every rig is sent the packet first, then each one's replies are
        // read: all wait together, not one after the other.
        var failed = false, unanswered = false
        var sent: [Bool] = []
        for rig in rigs {
            let ok = rig.client.send(packet)
            if !ok {
                Self.complain(prefix(rig.name, rigs.count) + (rig.client.refused ? Self.nothingListens(rig.name, host: rig.host)
                                                                                   : "crosspoint send: could not send to \(rig.name)"))
                if rig.client.refused { unanswered = true } else { failed = true }
            }
            sent.append(ok)
        }
        for (index, rig) in rigs.enumerated() where sent[index] {
            let replies = rig.client.receive(for: index == sent.firstIndex(of: true) ? wait : min(wait, 0.01))
            for reply in replies { print(prefix(rig.name, rigs.count) + "\(reply)") }
            if replies.contains(where: { $0.address == Reply.Name.error.address }) { failed = true }
            if rig.client.refused {
                Self.complain(prefix(rig.name, rigs.count) + Self.nothingListens(rig.name, host: rig.host))
                unanswered = true
            } else if replies.isEmpty && Self.expectsAnswer(packet) {
                // A query or /ping expects an answer; a change is answered only when refused.
                Self.complain(prefix(rig.name, rigs.count)
                      + "crosspoint send: nothing answered from \(rig.name) within \(wait) s (is the rig running, on that port?)")
                unanswered = true
            }
        }
        if failed { throw ExitCode.failure }
        if unanswered { throw Self.noAnswer }
    }

    /// What went wrong goes to standard error, a line each; the replies
    /// alone go to standard output, for a script to read.
    static func complain(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// A reply line's prefix: the rig's address when there are several.
    private func prefix(_ rig: String, _ count: Int) -> String { count > 1 ? "\(rig) " : "" }

    /// Each `--host` to send to, with its port (127.0.0.1 when none is given).
    func destinations() throws -> [(host: String, port: Int)] {
        try (host.isEmpty ? ["127.0.0.1"] : host).map { try destination($0) }
    }

    /// The time tag `--at` gives: `+SECONDS` from `now` (a Unix time), or a
    /// Unix time in seconds; nil without `--at`.
    static func timeTag(_ at: String?, now: Double) throws -> OSCTimeTag? {
        guard let at else { return nil }
        let relative = at.hasPrefix("+")
        guard let value = Double(relative ? String(at.dropFirst()) : at), value.isFinite, value >= 0 else {
            throw ValidationError("--at \(at): expected +SECONDS from now (+0.5) or a Unix time in seconds")
        }
        guard relative || value > 946_684_800 else { // 2000-01-01: a time, not a duration without its '+'
            throw ValidationError("--at \(at): a Unix time in seconds, or +\(at) for that many seconds from now")
        }
        return OSCTimeTag(unixTime: relative ? now + value : value)
    }

    /// One `--host`'s host and port: `--host` may carry the port itself.
    func destination(_ host: String) throws -> (host: String, port: Int) {
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

    /// The message, or the bundle, with its arguments typed; a bundle
    /// time-tagged by `--at` (a lone message too).
    func packet() throws -> OSCPacket {
        let tag = try Self.timeTag(at, now: Self.unixNow())
        guard bundle else {
            let message = OSCMessage(address, try Self.typed(arguments, types: types))
            return tag.map { .bundle([message], at: $0) } ?? .message(message)
        }
        let messages = try ([address] + arguments).map { text in
            let words = text.split(separator: " ").map(String.init)
            guard let first = words.first else { throw ValidationError("empty message in bundle") }
            return OSCMessage(first, try Self.typed(Array(words.dropFirst()), types: nil))
        }
        return .bundle(messages, at: tag ?? .immediately)
    }

    /// The Unix time now, from the system's clock (what time tags count from).
    static func unixNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
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
