import FoundationEssentials
import JSON
import SystemSupport

/// What the rig has to say about its state file until someone acknowledges
/// it (`/status/state_note`, the page's status bar): a file set aside as
/// unreadable, or fields of it skipped. Nothing about the saved state is
/// ever lost silently: the log alone is not read during a show.
public struct StateNote: Equatable, Sendable {
    /// The file it is about: the one set aside, or the state file read.
    public let file: String
    public let reason: String
    /// When the rig found it.
    public let time: Date

    public init(file: String, reason: String, time: Date = Date()) {
        self.file = file
        self.reason = reason
        self.time = time
    }

    /// The note for fields skipped while reading `file`: how many, and the
    /// first few by their path and why (text from the file escaped and cut).
    public static func skipped(_ errors: [FileError], in file: String) -> StateNote? {
        guard !errors.isEmpty else { return nil }
        let named = errors.prefix(3).map { "\($0.field.isEmpty ? "document" : $0.field): \($0.problem)" }
        let more = errors.count > 3 ? "; and \(errors.count - 3) more (see the log)" : ""
        let reason = "skipped \(errors.count) field\(errors.count == 1 ? "" : "s") it could not read, keeping the rest: "
            + named.joined(separator: "; ") + more
        return StateNote(file: file, reason: reason.escapingControlCharacters().cut(to: 512))
    }

    /// The time as people and scripts read it: UTC, to the second (ISO 8601).
    public var timeText: String { time.formatted(.iso8601) }
}
