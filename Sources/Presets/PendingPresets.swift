import Synchronization

/// Preset writes handed to the `PresetWriter` and not yet on disk, by name:
/// what the name will hold once they are done (a preset, or nothing after a
/// delete or a rename away). `PresetStore` looks here before it looks at the
/// disk, so a save followed at once by a recall, list, rename or delete of
/// the same name sees the saved preset.
///
/// An entry lasts until the last write queued for its name has finished,
/// successfully or not; the disk then holds what the store shows (after a
/// failed write: what it held before).
public final class PendingPresets: Sendable {
    /// What a name will hold.
    public enum Content: Sendable {
        case preset(Preset)
        case removed
    }

    private struct Entry {
        var content: Content
        /// Writes queued for this name and not finished.
        var writes: Int
    }

    private let entries = Mutex<[String: Entry]>([:])

    public init() {}

    /// Notes a write queued for `name`: from now on the name holds `content`.
    func stage(_ content: Content, for name: String) {
        entries.withLock { entries in
            entries[name] = Entry(content: content, writes: (entries[name]?.writes ?? 0) + 1)
        }
    }

    /// One write for `name` has finished (call after the disk holds its
    /// outcome): the entry goes when it was the last one queued.
    func settle(_ name: String) {
        entries.withLock { entries in
            guard var entry = entries[name] else { return }
            entry.writes -= 1
            entries[name] = entry.writes > 0 ? entry : nil
        }
    }

    /// What `name` will hold, if a write for it is queued.
    public func content(of name: String) -> Content? {
        entries.withLock { $0[name]?.content }
    }

    /// Whether a write for `name` is queued and not finished.
    public func isPending(_ name: String) -> Bool {
        entries.withLock { $0[name] != nil }
    }

    /// Every name with a write queued, and what it will hold.
    func all() -> [String: Content] {
        entries.withLock { $0.mapValues(\.content) }
    }

    /// Names with writes queued.
    public var count: Int { entries.withLock { $0.count } }
}
