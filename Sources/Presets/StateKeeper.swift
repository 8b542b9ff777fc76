import Catalogue
import JSON
import FoundationEssentials
import Glibc
import Logging
import Synchronization
import SystemSupport

/// Saves the live rig state to its file, about a second after the last
/// change (and at least every five seconds while changes keep coming), with
/// the same atomic write as presets; and reads it back at start.
public final class StateKeeper: @unchecked Sendable {
    public let url: URL
    private let logger: Logger
    private let pending = Mutex<Pending>(Pending())
    private let quiet: Duration = .seconds(1)
    private let longest: Duration = .seconds(5)

    private struct Pending {
        var firstChange: ContinuousClock.Instant?
        var lastChange: ContinuousClock.Instant?
        var stopping = false
    }

    /// The parameters the state's strips hold (and their ranges).
    let catalogue: Catalogue
    /// What the rig has to say about the file until acknowledged.
    private let pendingNote = Mutex<StateNote?>(nil)
    /// Why the last save failed; nil while saves succeed.
    private let failure = Mutex<String?>(nil)
    /// Told when saves start failing or succeed again (false: the last
    /// failed), on the thread that saved: `/status/state_saved` to subscribers.
    private let saving = Mutex<(@Sendable (Bool) -> Void)?>(nil)

    public init(url: URL, logger: Logger, catalogue: Catalogue = Catalogue()) {
        self.url = url
        self.logger = logger
        self.catalogue = catalogue
    }

    /// `$XDG_STATE_HOME/crosspoint/NAME.json`, or `~/.local/state/crosspoint/NAME.json`.
    public static func defaultURL(clientName: String) -> URL {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/state")
        return base.appendingPathComponent("crosspoint").appendingPathComponent(clientName + ".json")
    }

    /// The saved state, if there is one, read field by field: a field that
    /// cannot be read is skipped and named (the log, and `note`), the rest
    /// kept. A file that cannot be read at all is reported and set aside
    /// (renamed, never deleted), and named in `note`; the rig then starts
    /// from its default scene.
    public func load() -> RigState? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        do {
            let (state, skipped) = try RigState.read(data, file: url.path, catalogue: catalogue)
            for error in skipped { logger.error("\("\(error)".escapingControlCharacters().cut(to: 512)); skipped, the rest of the state kept") }
            pendingNote.withLock { $0 = StateNote.skipped(skipped, in: url.path) }
            return state
        } catch {
            let stamp = Int(Date().timeIntervalSince1970)
            let aside = url.path + ".unreadable-\(stamp)"
            let moved = rename(url.path, aside) == 0
            let reason = "\(error)".escapingControlCharacters().cut(to: 512)
            logger.error("\(reason); \(moved ? "set aside as \(aside)" : "could not set it aside"); starting from the default scene")
            let note = moved ? "set aside as unreadable (\(error.problem)); the rig started from its default scene"
                : "unreadable (\(error.problem)) and could not be set aside; the rig started from its default scene"
            pendingNote.withLock {
                $0 = StateNote(file: moved ? aside : url.path, reason: note.escapingControlCharacters().cut(to: 512))
            }
            return nil
        }
    }

    /// What the rig has to say about its state file, until `acknowledge()`.
    public var note: StateNote? { pendingNote.withLock { $0 } }

    /// Someone has read the note (`/status/state_note/ack`); true if there was one.
    @discardableResult
    public func acknowledge() -> Bool {
        pendingNote.withLock { note in
            defer { note = nil }
            return note != nil
        }
    }

    /// Notes that the state changed; cheap, called under the scene's lock (LiveScene).
    public func changed() {
        let now = ContinuousClock.now
        pending.withLock { p in
            if p.firstChange == nil { p.firstChange = now }
            p.lastChange = now
        }
    }

    /// Writes changes as they settle until `stop()`. Call on its own thread.
    public func run(snapshot: () -> RigState) {
        while true {
            Thread.sleep(forTimeInterval: 0.1)
            let now = ContinuousClock.now
            let (due, stopping) = pending.withLock { p -> (Bool, Bool) in
                guard let first = p.firstChange, let last = p.lastChange else { return (false, p.stopping) }
                let due = p.stopping || now - last >= quiet || now - first >= longest
                if due { p.firstChange = nil; p.lastChange = nil }
                return (due, p.stopping)
            }
            if due { write(snapshot()) }
            if stopping { return }
        }
    }

    /// Ends `run` after a last write of anything pending.
    public func stop() { pending.withLock { $0.stopping = true } }

    /// Writes the state; why it could not, or nil. A failure is logged once
    /// until a save succeeds, and `saved` is false meanwhile.
    @discardableResult
    public func write(_ state: RigState) -> String? {
        let problem: String?
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try AtomicFile.write(state.encoded(catalogue: catalogue), to: url)
            logger.debug("saved the rig state to \(url.path)")
            problem = nil
        } catch let error as FileError {
            problem = error.description
        } catch {
            problem = "\(url.path): cannot create its directory (\(FileError.reason(error)))"
        }
        let before = failure.withLock { failure in
            defer { failure = problem }
            return failure
        }
        if (before == nil) != (problem == nil) {
            if let problem {
                logger.error("cannot save the rig state: \(problem); the show goes on, unsaved, until a save succeeds")
            } else {
                logger.notice("saved the rig state to \(url.path) again")
            }
            saving.withLock { $0 }?(problem == nil)
        }
        return problem
    }

    /// Whether the last save succeeded (`/status/state_saved`).
    public var saved: Bool { failure.withLock { $0 == nil } }

    /// Why the last save failed; nil while saves succeed.
    public var saveFailure: String? { failure.withLock { $0 } }

    /// Has `told` called whenever saves start failing or succeed again.
    public func onSaving(_ told: @escaping @Sendable (Bool) -> Void) { saving.withLock { $0 = told } }
}
