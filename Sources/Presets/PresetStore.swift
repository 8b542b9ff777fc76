import FoundationEssentials
import SystemSupport

/// The presets directory: one `NAME.json` per preset. Every load looks at
/// the disk, so a preset edited by hand is picked up at its next recall; a
/// file unchanged since it was last read is not parsed again (`PresetCache`).
public struct PresetStore: Sendable {
    public let directory: URL
    /// Shared by every copy of this store.
    public let cache = PresetCache()

    public init(directory: URL) {
        self.directory = directory
    }

    public func url(for name: String) -> URL {
        directory.appendingPathComponent(name + ".json")
    }

    /// Every preset name in the directory, sorted (the files are not read).
    public func names() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }
            .map { String($0.dropLast(5)) }
            .filter(PresetName.isValid)
            .sorted { $0.naturallyPrecedes($1) }
    }

    public func exists(_ name: String) -> Bool {
        PresetName.isValid(name) && FileManager.default.fileExists(atPath: url(for: name).path)
    }

    public func load(_ name: String) throws(PresetError) -> Preset {
        try PresetName.check(name)
        let file = url(for: name)
        let identity = PresetCache.FileIdentity(path: file.path)
        if let identity, let preset = cache.preset(name, file: identity) { return preset }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            cache.forget(name)
            throw PresetError(file: displayPath(file), "no such preset")
        }
        var preset = try PresetCoding.decode(data, file: displayPath(file))
        preset.name = name // the file name is the name
        // (Identity taken before the read: if the file changed in between,
        // the next load sees a new identity and reads it again.)
        if let identity { cache.keep(preset, name, file: identity) }
        return preset
    }

    public func save(_ preset: Preset) throws(PresetError) {
        try PresetName.check(preset.name)
        try makeDirectory()
        cache.forget(preset.name)
        try AtomicFile.write(PresetCoding.encode(preset), to: url(for: preset.name))
    }

    public func delete(_ name: String) throws(PresetError) {
        try PresetName.check(name)
        guard exists(name) else { throw PresetError(file: displayPath(url(for: name)), "no such preset") }
        cache.forget(name)
        do {
            try FileManager.default.removeItem(at: url(for: name))
        } catch {
            throw PresetError(file: displayPath(url(for: name)), "cannot delete (\(PresetError.reason(error)))")
        }
    }

    /// Renames a preset; the name inside the file follows. Refuses to
    /// overwrite another preset.
    public func rename(_ old: String, to new: String) throws(PresetError) {
        try PresetName.check(old)
        try PresetName.check(new)
        var preset = try load(old)
        guard !exists(new) || old == new else {
            throw PresetError(file: displayPath(url(for: new)), "a preset of that name exists already")
        }
        preset.name = new
        try save(preset)
        if old != new { try delete(old) }
    }

    private func makeDirectory() throws(PresetError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw PresetError(file: directory.path, "cannot create the presets directory (\(PresetError.reason(error)))")
        }
    }

    /// Paths in messages relative to the working directory when they are below it.
    func displayPath(_ url: URL) -> String {
        let cwd = FileManager.default.currentDirectoryPath + "/"
        return url.path.hasPrefix(cwd) ? String(url.path.dropFirst(cwd.count)) : url.path
    }
}
