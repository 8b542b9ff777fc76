import Synchronization

/// The fields a lenient reading skipped, each with why. The state file is
/// read leniently: one bad field (a patch too long, a value out of range, a
/// field a later build added) is skipped and named, and the rest of the
/// scene is kept; a preset, which a person edits and can mend, is read
/// strictly (`FieldReader.skipped` nil).
package final class SkippedFields: Sendable {
    private let errors = Mutex<[FileError]>([])

    package init() {}

    package func note(_ error: FileError) { errors.withLock { $0.append(error) } }

    package var all: [FileError] { errors.withLock { $0 } }
}
