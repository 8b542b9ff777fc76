import Catalogue
import MixCore
import SceneModel
import OSC
import Presets
import Synchronization
import SystemSupport

/// `/preset/…`: saving, recalling with a crossfade, undo, and the store.
///
/// Saves, deletes and renames are written by the store's writer thread, not
/// on the thread that handles messages: the message is checked and the
/// outcome shown at once (the preset is current, and list, recall, rename
/// and delete see it), and the reply (`/preset/saved`, `/preset/deleted`,
/// `/preset/renamed`) goes to the sender through `reply` once the file is
/// safe on disk. A write that fails is answered `/error` naming the file;
/// the store then shows the disk as it was, and the current preset is put
/// back.
///
/// One part of the controller: it owns the store (whose writes have their
/// own thread and locks) and works on the live scene under the scene's
/// lock, which the controller holds around every message.
final class PresetDesk: @unchecked Sendable {
    let store: PresetStore
    let scene: LiveScene
    /// Where a write's outcome is answered, from the writer's thread.
    let reply: @Sendable (OSCPacket, OSCPeer) -> Void
    /// Set by a save, delete or rename: subscribers are sent the new list.
    private let listChanged = Atomic<Bool>(false)

    init(store: PresetStore, scene: LiveScene, reply: @escaping @Sendable (OSCPacket, OSCPeer) -> Void) {
        self.store = store
        self.scene = scene
        self.reply = reply
    }

    /// Whether the list changed since the last ask.
    func takeListChanged() -> Bool { listChanged.exchange(false, ordering: .relaxed) }

    /// What a recall may change.
    struct RecallScope: OptionSet {
        let rawValue: Int
        static let sources = RecallScope(rawValue: 1)
        static let matrix = RecallScope(rawValue: 2)
        static let outputs = RecallScope(rawValue: 4)
        static let master = RecallScope(rawValue: 8)
        /// The DCAs and mute groups themselves (levels, mutes, names); a
        /// source's memberships go with the source.
        static let groups = RecallScope(rawValue: 16)
        /// The sources' EQ alone (a part of `sources`): their low cut and bands.
        static let eq = RecallScope(rawValue: 32)
        static let all: RecallScope = [.sources, .matrix, .outputs, .master, .groups, .eq]

        /// "sources", "matrix", "outputs", "master", "groups", "eq", or a comma-separated list.
        init?(_ text: String) {
            var scope: RecallScope = []
            for word in text.split(separator: ",") {
                switch word.trimmingWhitespace() {
                case "sources": scope.insert(.sources)
                case "matrix": scope.insert(.matrix)
                case "outputs": scope.insert(.outputs)
                case "master": scope.insert(.master)
                case "groups": scope.insert(.groups)
                case "eq": scope.insert(.eq)
                default: return nil
                }
            }
            guard !scope.isEmpty else { return nil }
            self = scope
        }

        init(rawValue: Int) { self.rawValue = rawValue }
    }

    /// A `/preset/…` command, under the scene's lock.
    func run(_ command: Command.Name, _ args: ArgumentReader,
                       from peer: OSCPeer) throws(ArgumentReader.Failure) -> [OSCPacket] {
        switch command {
        case .presetSave:
            let words = try args.strings(1...2, usage: "name [notes]")
            return try save(words[0], notes: words.count > 1 ? words[1] : nil, args, from: peer)
        case .presetRecall:
            return try recall(args)
        case .presetList:
            try args.none()
            return [.message(presetList())]
        case .presetDelete:
            let name = try args.strings(1...1, usage: "name")[0]
            return try delete(name, args, from: peer)
        case .presetRename:
            let names = try args.strings(2...2, usage: "old new")
            return try rename(names[0], to: names[1], args, from: peer)
        case .presetUndo:
            let fade = try args.optionalFade()
            return try undo(fade: fade)
        case .presetCurrent:
            try args.none()
            return [.message(currentPreset())]
        case .presetUnreadable:
            try args.none()
            return [.message(unreadablePresets())]
        default:
            throw ArgumentReader.Failure(reason: "not a preset command")
        }
    }

    /// `/preset/list`'s answer: every preset's name.
    func presetList() -> OSCMessage {
        OSCMessage(Command.Name.presetList.address, store.names().map { .string($0) })
    }

    /// `/preset/unreadable`'s answer: for each preset in the list whose file
    /// cannot be read (not JSON, a field out of range), its name and the
    /// file's error, cut to 256 characters. A file unchanged since it was
    /// last read whole is not parsed again (`PresetCache`).
    func unreadablePresets() -> OSCMessage {
        var arguments: [OSCArgument] = []
        for name in store.names() {
            do {
                _ = try store.load(name)
            } catch {
                arguments += [.string(name), .string(String(describing: error).cut())]
            }
        }
        return OSCMessage(Command.Name.presetUnreadable.address, arguments)
    }

    /// `/preset/current`'s answer: the last preset recalled (or saved), and
    /// 1 if the scene has changed since.
    func currentPreset() -> OSCMessage {
        OSCMessage(Command.Name.presetCurrent.address, [.string(scene.state.preset ?? ""), .int32(scene.state.modified ? 1 : 0)])
    }

    /// The preset is current at once; `/preset/saved` follows when the file
    /// is safe. If the write fails, the preset current before is put back
    /// (marked modified if the scene changed meanwhile, or if it was this
    /// one), unless something else became current or another save of the
    /// name is still queued.
    private func save(_ name: String, notes: String?, _ args: ArgumentReader,
                      from peer: OSCPeer) throws(ArgumentReader.Failure) -> [OSCPacket] {
        try attempt { try PresetName.check(name) }
        let name = PresetName.normalized(name)
        if let notes, notes.count > 4096 || notes.utf8.count > 16_384 {
            throw ArgumentReader.Failure(reason: "notes longer than 4096 characters")
        }
        // Overwriting keeps the preset's own fade, and its notes unless new ones are given.
        let previous = try? store.load(name)
        let preset = Preset(name: name, notes: notes ?? previous?.notes, fade: previous?.fade, scene: scene.state.scene)
        let before = (preset: scene.state.preset, modified: scene.state.modified)
        let store = store
        let done = written(.presetSave, args, from: peer, reply: OSCMessage(Reply.Name.presetSaved.address, [.string(name)]),
                           log: "saved preset '\(name)'") { state in
            guard state.preset == name, !store.pending.isPending(name) else { return }
            state.preset = before.preset.flatMap { store.exists($0) ? $0 : nil }
            state.modified = before.modified || state.modified || before.preset == name
        }
        try attempt { try store.save(preset, then: done) }
        listChanged.store(true, ordering: .relaxed)
        scene.state.preset = name
        scene.state.modified = false
        return []
    }

    /// No longer current at once; current again if the removal fails and
    /// nothing else became current.
    private func delete(_ name: String, _ args: ArgumentReader,
                        from peer: OSCPeer) throws(ArgumentReader.Failure) -> [OSCPacket] {
        let wasCurrent = scene.state.preset == name
        let store = store
        let done = written(.presetDelete, args, from: peer, reply: OSCMessage(Reply.Name.presetDeleted.address, [.string(name)]),
                           log: "deleted preset '\(name)'") { state in
            if wasCurrent, state.preset == nil, store.exists(name) { state.preset = name }
        }
        try attempt { try store.delete(name, then: done) }
        listChanged.store(true, ordering: .relaxed)
        if wasCurrent { scene.state.preset = nil }
        return []
    }

    /// The current preset follows its new name at once, and goes back if
    /// the new file cannot be written.
    private func rename(_ old: String, to new: String, _ args: ArgumentReader,
                        from peer: OSCPeer) throws(ArgumentReader.Failure) -> [OSCPacket] {
        let wasCurrent = scene.state.preset == old
        let store = store
        let done = written(.presetRename, args, from: peer,
                           reply: OSCMessage(Reply.Name.presetRenamed.address, [.string(old), .string(new)]),
                           log: "renamed preset '\(old)' to '\(new)'") { state in
            if wasCurrent, state.preset == new, store.exists(old), !store.exists(new) { state.preset = old }
        }
        try attempt { try store.rename(old, to: new, then: done) }
        listChanged.store(true, ordering: .relaxed)
        if wasCurrent { scene.state.preset = new }
        return []
    }

    /// What happens when the writer is done with a save, delete or rename
    /// (on its thread): the sender is sent `reply`; or, if the write failed,
    /// `restore` puts the state back, under the lock, and the sender is sent
    /// `/error ,ss address reason`.
    private func written(_ command: Command.Name, _ args: ArgumentReader, from peer: OSCPeer,
                         reply success: OSCMessage, log: String,
                         restore: @escaping @Sendable (inout RigState) -> Void) -> PresetStore.Completion {
        let message = OSCMessage(command.address, args.arguments)
        // Taken now, under the lock: it is silent while a timed bundle is rehearsed.
        let logger = scene.log
        return { [scene, reply] error in
            guard let error else {
                logger.notice("\(log)")
                reply(.message(success), peer)
                return
            }
            let replies = scene.lock.withLock { _ in
                let before = (scene.state.preset, scene.state.modified)
                restore(&scene.state)
                if before != (scene.state.preset, scene.state.modified) { scene.stateChanged() }
                return Controller.refusal(message, "\(error)", from: peer, logger: logger)
            }
            for packet in replies { reply(packet, peer) }
        }
    }

    /// `s name [f fade] [s scope]`: the fade from the message, else the file's,
    /// else the scene.smoothing time.
    private func recall(_ args: ArgumentReader) throws(ArgumentReader.Failure) -> [OSCPacket] {
        let received = ContinuousClock.now
        let (name, fade, scopeText) = try args.recallArguments()
        return try recall(name, fade: fade, scope: scopeText, received: received)
    }

    /// `/preset/recall/{name}`: a scene on a button, recalled as `/preset/recall
    /// name` recalls it (the file's fade, every part but the safes), and
    /// refused with the same reasons.
    func recall(named name: String) throws(ArgumentReader.Failure) -> [OSCPacket] {
        try recall(name, fade: nil, scope: nil, received: .now)
    }

    private func recall(_ name: String, fade: Double?, scope scopeText: String?,
                        received: ContinuousClock.Instant) throws(ArgumentReader.Failure) -> [OSCPacket] {
        var scope = RecallScope.all
        if let scopeText {
            guard let parsed = RecallScope(scopeText) else {
                throw ArgumentReader.Failure(reason: "unknown scope '\(scopeText)' (sources, matrix, outputs, master, groups, eq, or a comma-separated list)")
            }
            scope = parsed
        }
        let preset = try attempt { try store.load(name) }
        let live = scene.state.scene
        let (fitted, skipped) = preset.fitted(inputs: live.inputCount, outputs: live.outputCount, dcas: live.dcas.count,
                                              muteGroups: live.muteGroups.count, banks: live.banks)
        var target = scene.state.scene
        if scope.contains(.sources) { target.sources = fitted.sources }
        if scope.contains(.eq) && !scope.contains(.sources) {
            for n in target.sources.indices where n < fitted.sources.count { target.sources[n].eq = fitted.sources[n].eq }
        }
        if scope.contains(.matrix) { target.crosspoints = fitted.crosspoints }
        if scope.contains(.outputs) { target.outputs = fitted.outputs }
        if scope.contains(.master) { target.master = fitted.master }
        if scope.contains(.groups) { (target.dcas, target.muteGroups) = (fitted.dcas, fitted.muteGroups) }
        // The strips of kinds kept in banks (`StripKind.Storage.bank`) have
        // no scope of their own: a whole recall takes them.
        if scope.isSuperset(of: [.sources, .matrix, .outputs, .master, .groups]) { target.banks = fitted.banks }
        keepSafes(of: live, in: &target)

        let seconds = Float(fade ?? preset.fade ?? Double(scene.smoothing))
        scene.undoState = scene.state
        var changes: [Change] = []
        scene.transition(to: target, seconds: seconds, into: &changes)
        scene.submit(changes)
        scene.state.preset = name
        scene.state.modified = false
        scene.changed = false
        let prepared = ContinuousClock.now - received
        scene.log.notice("recalled preset '\(name)' over \(seconds) s: \(changes.count) parameters move (read and prepared in \(prepared))")
        var replies: [OSCPacket] = [.message(OSCMessage(Reply.Name.presetRecalled.address, [.string(name), .float(seconds)]))]
        if !skipped.isEmpty {
            let text = skipped.joined(separator: "; ")
            scene.log.warning("preset '\(name)' is larger than the rig; skipped \(text)")
            replies.append(.message(OSCMessage(Reply.Name.presetSkipped.address, [.string(name), .string(text)])))
        }
        return replies
    }

    /// Back to the state before the last recall (safe parts keep their live
    /// values); a second undo goes forward again.
    private func undo(fade: Double?) throws(ArgumentReader.Failure) -> [OSCPacket] {
        guard let previous = scene.undoState else { throw ArgumentReader.Failure(reason: "nothing to undo") }
        var target = previous.scene
        keepSafes(of: scene.state.scene, in: &target)
        let seconds = Float(fade ?? Double(scene.smoothing))
        scene.undoState = scene.state
        var changes: [Change] = []
        scene.transition(to: target, seconds: seconds, into: &changes)
        scene.submit(changes)
        scene.state.preset = previous.preset
        scene.state.modified = previous.modified
        scene.changed = false
        scene.log.notice("undid the last recall over \(seconds) s")
        return [.message(OSCMessage(Reply.Name.presetUndone.address, [.string(previous.preset ?? "")]))]
    }

    /// Each safe strip keeps in `target` what its safe keeps of `live`
    /// (`RecallSafe.keep`): a safe source its values, a mix-safe output
    /// every crosspoint into it, a performer's in-ear mix as they set it.
    private func keepSafes(of live: Scene, in target: inout Scene) {
        for (safe, n) in scene.state.safes.all(scene.catalogue) { safe.keep(live, &target, n) }
    }

    /// Runs a store operation; its error becomes the `/error` reason.
    private func attempt<T>(_ body: () throws -> T) throws(ArgumentReader.Failure) -> T {
        do {
            return try body()
        } catch {
            throw ArgumentReader.Failure(reason: "\(error)")
        }
    }
}
