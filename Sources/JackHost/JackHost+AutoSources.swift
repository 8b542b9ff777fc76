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
            let named = client.ports.prefix(pair ? 2 : 1).map(Self.literal)
            claims.append(Claim(source: first + 1, pair: pair, patch: "^(\(named.joined(separator: "|")))$", name: client.name))
            seen.claimed.insert(client.name)
            logger.notice("auto sources: JACK client '\(client.name.escapingControlCharacters())' takes source \(first + 1)\(pair ? " and \(first + 2), linked" : "")")
        }
        return claims
    }

    /// A port's name as a POSIX extended regular expression that matches it alone.
    static func literal(_ name: String) -> String {
        var out = ""
        for character in name {
            if ".[]()*+?{}|^$\\".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
