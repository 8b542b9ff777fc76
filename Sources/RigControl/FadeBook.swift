/// The fades under way, by parameter (its plain target), and the order
/// they take turns in when their moving values are shown (`publishFades`):
/// a value type the scene keeps under its lock.
struct FadeBook {
    /// Parameters fading now.
    var fades: [Target: Fade] = [:]
    /// The order fading parameters take turns in, each once.
    var turns: [Target] = []
    var turnKeys: Set<Target> = []
    var cursor = 0
    /// The earliest end of a fade not yet seen over.
    var nextEnd: ContinuousClock.Instant?

    var isEmpty: Bool { fades.isEmpty }

    subscript(_ key: Target) -> Fade? { fades[key] }

    /// `key` fades as `fade`.
    mutating func start(_ key: Target, _ fade: Fade) {
        if turnKeys.insert(key).inserted { turns.append(key) }
        fades[key] = fade
        nextEnd = min(nextEnd ?? fade.end, fade.end)
    }

    /// `key` no longer fades (a quicker change ended it); its fade, if it had one.
    @discardableResult
    mutating func end(_ key: Target) -> Fade? {
        turnKeys.remove(key)
        return fades.removeValue(forKey: key)
    }

    /// Forgets everything (no fade is left).
    mutating func clear() { self = FadeBook() }

    /// The fades over by `now`, taken out.
    mutating func takeEnded(at now: ContinuousClock.Instant) -> [(Target, Fade)] {
        guard let end = nextEnd, now >= end else { return [] }
        var ended: [Target] = []
        nextEnd = nil
        for (key, fade) in fades {
            if fade.end <= now { ended.append(key) } else { nextEnd = min(nextEnd ?? fade.end, fade.end) }
        }
        return ended.compactMap { key in self.end(key).map { (key, $0) } }
    }

    /// The next fades in turn, at most `limit`, from where the last turn stopped.
    mutating func nextInTurn(_ limit: Int) -> [(Target, Fade)] {
        var taken: [(Target, Fade)] = []
        var visited = 0
        while visited < turns.count && taken.count < limit {
            if cursor >= turns.count { cursor = 0 }
            let key = turns[cursor]
            cursor += 1
            visited += 1
            // A fade that has ended, or that a quicker change ended, is gone.
            if let fade = fades[key] { taken.append((key, fade)) }
        }
        // Gone entries are left in the list until they outnumber the fades.
        if turns.count > 2 * fades.count + 256 {
            var seen: Set<Target> = []
            turns = turns.filter { fades[$0] != nil && seen.insert($0).inserted }
            (turnKeys, cursor) = (seen, 0)
        }
        return taken
    }
}
