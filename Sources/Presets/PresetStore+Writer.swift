import JSON
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Saves, deletes and renames written in the background, on `writer`: the
/// call checks what it can (the names, that the preset exists, that the new
/// name is free) and returns; from then on `load`, `names` and `exists` show
/// the outcome (from `pending` until the disk holds it). `done` runs on the
/// writer's thread once the file is safe on disk (nil), or with the error if
/// the write failed; the store then shows what the disk holds, which is what
/// it held before unless later writes for the same names are queued.
extension PresetStore {
    public typealias Completion = @Sendable (FileError?) -> Void

    public func save(_ preset: Preset, then done: @escaping Completion) throws(FileError) {
        try PresetName.check(preset.name)
        let preset = preset.named(PresetName.normalized(preset.name))
        pending.stage(.preset(preset), for: preset.name)
        writer.submit { [self] in
            let error = Self.outcome { () throws(FileError) in try keep(write(preset), preset.name) }
            pending.settle(preset.name)
            done(error)
        }
    }

    public func delete(_ name: String, then done: @escaping Completion) throws(FileError) {
        try PresetName.check(name)
        guard exists(name) else { throw FileError(file: displayPath(url(for: name)), "no such preset") }
        pending.stage(.removed, for: name)
        writer.submit { [self] in
            let error = Self.outcome { () throws(FileError) in try remove(name) }
            pending.settle(name)
            done(error)
        }
    }

    /// The new file is written before the old one is removed: a failure
    /// leaves the old preset (and, if only the removal failed, both).
    public func rename(_ old: String, to new: String, then done: @escaping Completion) throws(FileError) {
        let preset = try renamed(old, to: new)
        pending.stage(.preset(preset), for: new)
        if old != new { pending.stage(.removed, for: old) }
        writer.submit { [self] in
            let error = Self.outcome { () throws(FileError) in
                try keep(write(preset), new)
                if old != new { try remove(old) }
            }
            pending.settle(new)
            if old != new { pending.settle(old) }
            done(error)
        }
    }

    /// Keeps what a file just written says, parsed here on the writer's
    /// thread, in the cache: the next load of the name (a recall, or the
    /// next save, which reads the file's fade and notes, on the thread that
    /// handles OSC) is then a `stat`, not a read and parse (about a
    /// millisecond at 64x64).
    private func keep(_ written: (data: Data, file: stat), _ name: String) {
        guard var preset = try? PresetCoding.decode(written.data, file: displayPath(url(for: name)), catalogue: catalogue) else { return }
        preset.name = name
        cache.keep(preset, name, file: PresetCache.FileIdentity(written.file))
    }

    /// Waits until every write queued so far is done and reported.
    public func waitForWrites() {
        writer.waitUntilIdle()
    }

    private static func outcome(_ body: () throws(FileError) -> Void) -> FileError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }
}
