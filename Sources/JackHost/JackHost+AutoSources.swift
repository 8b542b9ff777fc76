import PortPatterns

/// Sources that come and go (`serve --auto-sources RE`, docs/sources.md): a
/// JACK client whose name matches, and whose output ports no patch names,
/// takes the first free source (no patch, nothing connected); with two or
/// more ports, the first free pair (odd n, n + 1), linked, fed by its first
/// two. The rig gives the source a patch naming exactly those ports, so
/// when the client leaves and comes back the patch brings it to the same
/// place. The supervisor decides; the rig makes the change (`Claim`).
extension JackHost {
    /// Sources a client takes: the first (1-based), whether a linked pair,
    /// the patch naming its ports, and the client's name.
    public struct Claim: Equatable, Sendable {
        public let source: Int
        public let pair: Bool
        public let patch: String
        public let name: String
    }

    /// The claims of clients that match `--auto-sources` and that no patch
    /// names, at the free sources; a client with nowhere to go is logged once.
    func claimSources(ports: [String], patches: [String], feeds: [Set<String>], seen: inout Seen) -> [Claim] {
        guard let text = options.autoSources, let wanted = try? PortPattern(text) else { return [] }
        var clients: [(name: String, ports: [String])] = []
        for port in ports {
            let client = String(port.prefix { $0 != ":" })
            if let index = clients.firstIndex(where: { $0.name == client }) {
                clients[index].ports.append(port)
            } else {
                clients.append((client, [port]))
            }
        }
        // A client that left may take a source again when it returns (if no patch names it then).
        let present = Set(clients.map(\.name))
        seen.claimed.formIntersection(present)
        seen.unplaced.formIntersection(present)
        let patterns = patches.compactMap { $0.isEmpty ? nil : try? PortPattern($0) }
        seen.taken = seen.taken.filter { patches.indices.contains($0) && patches[$0].isEmpty }
        var free = patches.indices.map {
            patches[$0].isEmpty && feeds.indices.contains($0) && feeds[$0].isEmpty && !seen.taken.contains($0)
        }
        var claims: [Claim] = []
        for client in clients where wanted.matches(client.name) && !seen.claimed.contains(client.name) {
            guard !client.ports.contains(where: { port in patterns.contains { $0.matches(port) } }) else { continue }
            let pair = client.ports.count >= 2
            let first = pair
                ? stride(from: 0, to: max(0, free.count - 1), by: 2).first { free[$0] && free[$0 + 1] }
                : free.firstIndex(of: true)
            guard let first else {
                if seen.unplaced.insert(client.name).inserted {
                    logger.warning("auto sources: no free \(pair ? "pair of sources" : "source") for JACK client '\(client.name.escapingControlCharacters())'; nothing connected")
                }
                continue
            }
            free[first] = false
            seen.taken.insert(first)
            if pair {
                free[first + 1] = false
                seen.taken.insert(first + 1)
            }
            let patch = Self.patch(naming: Array(client.ports.prefix(pair ? 2 : 1)), of: client.name)
            claims.append(Claim(source: first + 1, pair: pair, patch: patch, name: Self.sourceName(client.name)))
            seen.claimed.insert(client.name)
            logger.notice("auto sources: JACK client '\(client.name.escapingControlCharacters())' takes source \(first + 1)\(pair ? " and \(first + 2), linked" : "")")
        }
        return claims
    }

    /// The patch a claim writes: a pattern the rig would take over OSC
    /// (`PortPattern.problem` nil: at most 256 bytes, no control character)
    /// that matches the claimed ports first, in JACK's order. Names from
    /// JACK are data: matched literally, never pasted in as an expression.
    /// The ports by their full names, `^(a:x|a:y)$`, where that fits; else
    /// every port of the client, `^a:` (its first one or two are the
    /// claimed ones, as JACK lists a client's ports in order); a client name
    /// too long even for that is cut (at most 63 bytes in JACK, but PipeWire
    /// and others may allow more).
    static func patch(naming ports: [String], of client: String) -> String {
        let exact = "^(\(ports.map(literal).joined(separator: "|")))$"
        if PortPattern.problem(exact) == nil { return exact }
        var pieces: [String] = []
        var length = "^:".utf8.count
        for character in client {
            let piece = literal(String(character))
            guard length + piece.utf8.count <= PortPattern.longest else { return "^" + pieces.joined() }
            pieces.append(piece)
            length += piece.utf8.count
        }
        return "^" + pieces.joined() + ":"
    }

    /// A name as a pattern that matches it alone (a control character, which
    /// no pattern may hold, by a `.` for each of its bytes).
    static func literal(_ name: String) -> String {
        var out = ""
        for character in name {
            if character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                out += String(repeating: ".", count: String(character).utf8.count) // patterns match bytes
                continue
            }
            if ".[]()*+?{}|^$\\".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// A client's name as a source's name: control characters (a tab, an
    /// escape sequence's ESC) become spaces, and it is cut to the 64
    /// characters a name may have ("" when nothing is left: the source keeps its own).
    static func sourceName(_ client: String) -> String {
        var name = ""
        for scalar in client.unicodeScalars {
            name.unicodeScalars.append(scalar.properties.generalCategory == .control ? " " : scalar)
        }
        return String(name.trimmingWhitespace().prefix(64))
    }
}
