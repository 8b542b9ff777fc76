import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Presets already read, each with the identity of the file it came from,
/// so that recalling a preset whose file has not changed skips reading and
/// parsing it (about a millisecond at 64x64, most of a 64-frame period).
///
/// A file counts as unchanged while its device, inode, size, modification
/// and status-change times (to the nanosecond) are the same: an edit in
/// place changes the times, an atomic replace changes the inode. So a
/// preset edited by hand is still picked up at its next recall.
public final class PresetCache: Sendable {
    /// At most this many presets are kept (a 64x64 one takes about 20 KiB).
    public static let capacity = 64

    /// What `stat` says about a file, as far as telling an edit goes.
    public struct FileIdentity: Equatable, Sendable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modified: timespec
        let changed: timespec

        /// The identity of the file at `path`, or nil if it cannot be read.
        public init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            self.init(info)
        }

        /// The identity in what `stat` or `fstat` returned.
        public init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = info.st_mtim
            changed = info.st_ctim
        }

        public static func == (a: FileIdentity, b: FileIdentity) -> Bool {
            a.device == b.device && a.inode == b.inode && a.size == b.size
                && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
                && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
        }
    }

    private let entries = Mutex<[String: (identity: FileIdentity, preset: Preset)]>([:])
    private let hitCount = Atomic<Int>(0)

    public init() {}

    /// The preset read from `name`'s file if the file is still the same.
    public func preset(_ name: String, file identity: FileIdentity) -> Preset? {
        entries.withLock { entries in
            guard let entry = entries[name], entry.identity == identity else { return nil }
            hitCount.add(1, ordering: .relaxed)
            return entry.preset
        }
    }

    /// Keeps `preset` as the content of the file with `identity`.
    public func keep(_ preset: Preset, _ name: String, file identity: FileIdentity) {
        entries.withLock { entries in
            if entries[name] == nil && entries.count >= Self.capacity, let any = entries.keys.first {
                entries[any] = nil
            }
            entries[name] = (identity, preset)
        }
    }

    public func forget(_ name: String) {
        _ = entries.withLock { $0.removeValue(forKey: name) }
    }

    /// How many presets are kept.
    public var count: Int { entries.withLock { $0.count } }

    /// Loads answered without reading the file.
    public var hits: Int { hitCount.load(ordering: .relaxed) }
}
