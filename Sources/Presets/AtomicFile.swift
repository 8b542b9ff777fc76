import JSON
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Replaces a file so that a crash or kill at any moment leaves either the
/// old contents or the new, never a mixture: write a temporary file in the
/// same directory, fsync it, rename it over the old one, fsync the directory.
public enum AtomicFile {
    /// Returns what `fstat` says about the new file once it is in place
    /// (for `PresetCache.FileIdentity`).
    @discardableResult
    public static func write(_ data: Data, to url: URL) throws(FileError) -> stat {
        let directory = url.deletingLastPathComponent().path
        let temporary = directory + "/.\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(url, "cannot create a temporary file in \(directory)") }
        var written = 0
        let ok = data.withUnsafeBytes { bytes -> Bool in
            while written < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + written, bytes.count - written)
                if n < 0 { if errno == EINTR { continue }; return false }
                written += n
            }
            return fsync(fd) == 0
        }
        guard ok else {
            close(fd)
            unlink(temporary)
            throw failure(url, "cannot write")
        }
        guard rename(temporary, url.path) == 0 else {
            close(fd)
            unlink(temporary)
            throw failure(url, "cannot rename into place")
        }
        syncDirectory(directory)
        // Taken from our descriptor, after the rename (which changes the
        // status-change time): the identity of the file we wrote, whatever
        // may be at the path by now.
        var info = stat()
        fstat(fd, &info)
        close(fd)
        return info
    }

    /// Makes a rename or unlink in `directory` durable.
    private static func syncDirectory(_ directory: String) {
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
    }

    /// Removes a file so that the removal survives a crash: unlink it, then
    /// fsync the directory. A file that is already gone counts as removed.
    public static func remove(_ url: URL) throws(FileError) {
        guard unlink(url.path) == 0 || errno == ENOENT else { throw failure(url, "cannot delete") }
        syncDirectory(url.deletingLastPathComponent().path)
    }

    /// Removes temporary files that a killed writer left behind in
    /// `directory` (ours are named `.NAME.PID.RANDOM.tmp`; only those of
    /// processes no longer running are removed).
    public static func removeLeftovers(in directory: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            let parts = name.split(separator: ".")
            guard parts.count >= 4, let pid = Int32(parts[parts.count - 3]), kill(pid, 0) != 0 else { continue }
            unlink(directory.appendingPathComponent(name).path)
        }
    }

    private static func failure(_ url: URL, _ what: String) -> FileError {
        FileError(file: url.path, "\(what) (\(String(cString: strerror(errno))))")
    }
}
