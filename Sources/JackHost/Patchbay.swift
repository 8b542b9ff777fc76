import PortPatterns

/// The sources' input patches, as the supervisor keeps them (docs/sources.md):
/// for each source, the first of the other clients' output ports (in
/// JACK's order) that its pattern matches feeds it; for a linked pair, the
/// first two ports the pair's patch matches (its left member's, else its
/// right's) feed the left and the right member. The patchbay remembers
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
    mutating func plan(patches: [String], links: [Bool] = [], ports: [String],
                       feeds: [Set<String>]) -> (connect: [Feed], disconnect: [Feed]) {
        let count = min(patches.count, feeds.count)
        if made.count != count { made = Array(made.prefix(count)) + Array(repeating: nil, count: max(0, count - made.count)) }
        compiled = compiled.filter { patches.contains($0.key) }
        var connect: [Feed] = [], disconnect: [Feed] = []
        for index in 0..<count {
            let wanted = self.wanted(index, patches: patches, links: links, ports: ports)
            if let old = made[index], old != wanted, feeds[index].contains(old) {
                disconnect.append(Feed(port: old, source: index + 1))
            }
            guard let wanted else {
                // Nothing to feed it (its port is gone, or no patch): what it made is
                // forgotten, so a later connection by hand is not taken for the patch's.
                // A returning port is connected again all the same: it is not among the feeds.
                made[index] = nil
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

    /// The port that is to feed source index + 1: the first its patch
    /// matches; for a linked pair's member, the first or second the pair's
    /// patch matches.
    private mutating func wanted(_ index: Int, patches: [String], links: [Bool], ports: [String]) -> String? {
        let left = index & ~1
        let paired = left + 1 < patches.count && left + 1 < links.count && links[left] && links[left + 1]
        guard paired else { return pattern(patches[index]).flatMap { pattern in ports.first { pattern.matches($0) } } }
        let text = patches[left].isEmpty ? patches[left + 1] : patches[left]
        guard let pattern = pattern(text) else { return nil }
        let matching = ports.lazy.filter { pattern.matches($0) }.prefix(2)
        let side = index - left
        return matching.count > side ? Array(matching)[side] : nil
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
