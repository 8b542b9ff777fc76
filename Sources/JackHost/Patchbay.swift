import SystemSupport

/// The sources' input patches, as the supervisor keeps them (docs/sources.md):
/// for each source, the first of the other clients' output ports (in
/// JACK's order) that its pattern matches feeds it. The patchbay remembers
/// the connections it made itself, so that a patch changed, cleared or
/// matching another port takes away only those: connections made by hand
/// (`jack_connect`, qpwgraph) are left alone. A value: `plan` says what to
/// connect and disconnect, the supervisor does it.
struct Patchbay {
    /// A connection of another client's port to one of our inputs (source n, 1-based).
    struct Feed: Hashable {
        let port: String
        let source: Int
    }

    /// Per source (index n − 1), the port the patch connected.
    private(set) var made: [String?] = []
    /// Patterns compiled once, by their text.
    private var compiled: [String: PortPattern] = [:]

    /// What to connect and disconnect for these patches ("" none), given
    /// the other clients' output ports in JACK's order and what feeds each
    /// source now; the patchbay then counts the connections it plans as made.
    mutating func plan(patches: [String], ports: [String], feeds: [Set<String>]) -> (connect: [Feed], disconnect: [Feed]) {
        let count = min(patches.count, feeds.count)
        if made.count != count { made = Array(made.prefix(count)) + Array(repeating: nil, count: max(0, count - made.count)) }
        compiled = compiled.filter { patches.contains($0.key) }
        var connect: [Feed] = [], disconnect: [Feed] = []
        for index in 0..<count {
            let wanted = pattern(patches[index]).flatMap { pattern in ports.first { pattern.matches($0) } }
            if let old = made[index], old != wanted, feeds[index].contains(old) {
                disconnect.append(Feed(port: old, source: index + 1))
            }
            guard let wanted else {
                // Its port is gone (the client quit): it is made again when the port returns.
                if patches[index].isEmpty { made[index] = nil }
                continue
            }
            if !feeds[index].contains(wanted) {
                connect.append(Feed(port: wanted, source: index + 1))
                made[index] = wanted
            } else if made[index] != wanted {
                // Connected by hand already: not the patch's to take away.
                made[index] = nil
            }
        }
        return (connect, disconnect)
    }

    /// Forgets a connection that could not be made.
    mutating func failed(_ feed: Feed) {
        if feed.source - 1 < made.count, made[feed.source - 1] == feed.port { made[feed.source - 1] = nil }
    }

    private mutating func pattern(_ text: String) -> PortPattern? {
        guard !text.isEmpty else { return nil }
        if let known = compiled[text] { return known }
        guard let made = try? PortPattern(text) else { return nil }
        compiled[text] = made
        return made
    }
}
