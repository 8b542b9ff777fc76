import JSON
import Catalogue
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SystemSupport

/// The presets directory: one `NAME.json` per preset. Every load looks at
/// the disk, so a preset edited by hand is picked up at its next recall; a
/// file unchanged since it was last read is not parsed again (`PresetCache`).
///
/// `save`, `delete` and `rename` write at once and return when the disk
/// holds the result. Their forms with `then:` (PresetStore+Writer.swift)
/// queue the write on `writer` instead: until it is done, `load`, `names`
/// and `exists` answer from `pending` as if it were.
public struct PresetStore: Sendable {
    public let directory: URL
    /// Shared by every copy of this store.
    public let cache = PresetCache()
    /// Writes queued on `writer` and not yet done; shared by every copy.
    public let pending = PendingPresets()
    /// Where the background writes run; shared by every copy.
    public let writer = PresetWriter()

    /// The parameters a preset's strips hold (and their ranges).
    public let catalogue: Catalogue

    public init(directory: URL, catalogue: Catalogue = Catalogue()) {
        self.directory = directory
        self.catalogue = catalogue
    }

    public func url(for name: String) -> URL {
        directory.appendingPathComponent(PresetName.normalized(name) + ".json")
    }

    /// Every preset name in the directory, sorted (the files are not read),
    /// as it will be once the pending writes are done.
    public func names() -> [String] {
        // Pending writes first, then the disk: a write that finishes in
        // between is on the disk by the time it leaves `pending`.
        let staged = pending.all()
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var names = Set(files.filter { $0.hasSuffix(".json") }.map { PresetName.normalized(String($0.dropLast(5))) }
                            .filter(PresetName.isValid))
        for (name, content) in staged {
            switch content {
            case .preset: names.insert(name)
            case .removed: names.remove(name)
            }
        }
        return names.sorted { $0.naturallyPrecedes($1) }
    }

    public func exists(_ name: String) -> Bool {
        guard PresetName.isValid(name) else { return false }
        switch pending.content(of: name) {
        case .preset?: return true
        case .removed?: return false
        case nil: return FileManager.default.fileExists(atPath: url(for: name).path)
        }
    }

    public func load(_ name: String) throws(FileError) -> Preset {
        try PresetName.check(name)
        let file = url(for: name)
        switch pending.content(of: name) {
        case .preset(let preset)?: return preset
        case .removed?: throw FileError(file: displayPath(file), "no such preset")
        case nil: break
        }
        let identity = PresetCache.FileIdentity(path: file.path)
        if let identity, let preset = cache.preset(name, file: identity) { return preset }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            cache.forget(name)
            throw FileError(file: displayPath(file), "no such preset")
        }
        var preset = try PresetCoding.decode(data, file: displayPath(file), catalogue: catalogue)
        preset.name = PresetName.normalized(name) // the file name is the name
        // (Identity taken before the read: if the file changed in between,
        // the next load sees a new identity and reads it again.)
        if let identity { cache.keep(preset, name, file: identity) }
        return preset
    }

    public func save(_ preset: Preset) throws(FileError) {
        try PresetName.check(preset.name)
        try write(preset.named(PresetName.normalized(preset.name)))
    }

    public func delete(_ name: String) throws(FileError) {
        try PresetName.check(name)
        guard exists(name) else { throw FileError(file: displayPath(url(for: name)), "no such preset") }
        try remove(name)
    }

    /// Renames a preset; the name inside the file follows. Refuses to
    /// overwrite another preset.
    public func rename(_ old: String, to new: String) throws(FileError) {
        let preset = try renamed(old, to: new)
        try save(preset)
        if old != new { try delete(old) }
    }

    /// `old`'s preset under the name `new`, after checking both names and
    /// that `new` is free (or the same).
    func renamed(_ old: String, to new: String) throws(FileError) -> Preset {
        try PresetName.check(old)
        try PresetName.check(new)
        var preset = try load(old)
        guard !exists(new) || old == new else {
            throw FileError(file: displayPath(url(for: new)), "a preset of that name exists already")
        }
        preset.name = new
        return preset
    }

    /// Writes `preset`'s file (atomically and durably), creating the
    /// directory if need be; returns what it wrote, and the file's `fstat`.
    @discardableResult
    func write(_ preset: Preset) throws(FileError) -> (data: Data, file: stat) {
        let file = url(for: preset.name)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw FileError(file: displayPath(file),
                              "cannot create the presets directory \(directory.path) (\(FileError.reason(error)))")
        }
        cache.forget(preset.name)
        let data = PresetCoding.encode(preset, catalogue: catalogue)
        return (data, try AtomicFile.write(data, to: file))
    }

    /// Removes `name`'s file durably; one already gone counts as removed.
    func remove(_ name: String) throws(FileError) {
        cache.forget(name)
        try AtomicFile.remove(url(for: name))
    }

    /// Paths in messages relative to the working directory when they are below it.
    func displayPath(_ url: URL) -> String {
        let cwd = FileManager.default.currentDirectoryPath + "/"
        return url.path.hasPrefix(cwd) ? String(url.path.dropFirst(cwd.count)) : url.path
    }
}
