import MixCore
import OSC
import Presets
import SystemSupport

/// `/preset/…`: saving, recalling with a crossfade, undo, and the store.
extension Controller {
    /// What a recall may change.
    struct RecallScope: OptionSet {
        let rawValue: Int
        static let sources = RecallScope(rawValue: 1)
        static let matrix = RecallScope(rawValue: 2)
        static let outputs = RecallScope(rawValue: 4)
        static let master = RecallScope(rawValue: 8)
        static let all: RecallScope = [.sources, .matrix, .outputs, .master]

        /// "sources", "matrix", "outputs", "master", or a comma-separated list.
        init?(_ text: String) {
            var scope: RecallScope = []
            for word in text.split(separator: ",") {
                switch word.trimmingWhitespace() {
                case "sources": scope.insert(.sources)
                case "matrix": scope.insert(.matrix)
                case "outputs": scope.insert(.outputs)
                case "master": scope.insert(.master)
                default: return nil
                }
            }
            guard !scope.isEmpty else { return nil }
            self = scope
        }

        init(rawValue: Int) { self.rawValue = rawValue }
    }

    func presetCommand(_ command: Target.PresetCommand, _ args: ArgumentReader,
                       from peer: OSCPeer) throws(ArgumentReader.Failure) -> [OSCPacket] {
        switch command {
        case .save:
            let words = try args.strings(1...2, usage: "name [notes]")
            return try save(words[0], notes: words.count > 1 ? words[1] : nil)
        case .recall:
            return try recall(args)
        case .list:
            try args.none()
            return [.message(OSCMessage("/preset/list", store.names().map { .string($0) }))]
        case .delete:
            let name = try args.strings(1...1, usage: "name")[0]
            try attempt { try store.delete(name) }
            if state.preset == name { state.preset = nil }
            logger.notice("deleted preset '\(name)'")
            return [.message(OSCMessage("/preset/deleted", [.string(name)]))]
        case .rename:
            let names = try args.strings(2...2, usage: "old new")
            try attempt { try store.rename(names[0], to: names[1]) }
            if state.preset == names[0] { state.preset = names[1] }
            logger.notice("renamed preset '\(names[0])' to '\(names[1])'")
            return [.message(OSCMessage("/preset/renamed", [.string(names[0]), .string(names[1])]))]
        case .undo:
            let fade = try args.optionalFade()
            return try undo(fade: fade)
        case .current:
            try args.none()
            return [.message(OSCMessage("/preset/current", [.string(state.preset ?? ""), .int32(state.modified ? 1 : 0)]))]
        }
    }

    private func save(_ name: String, notes: String?) throws(ArgumentReader.Failure) -> [OSCPacket] {
        try attempt { try PresetName.check(name) }
        if let notes, notes.count > 4096 || notes.utf8.count > 16_384 {
            throw ArgumentReader.Failure(reason: "notes longer than 4096 characters")
        }
        // Overwriting keeps the preset's own fade, and its notes unless new ones are given.
        let previous = try? store.load(name)
        let preset = Preset(name: name, notes: notes ?? previous?.notes, fade: previous?.fade, scene: state.scene)
        try attempt { try store.save(preset) }
        state.preset = name
        state.modified = false
        logger.notice("saved preset '\(name)'")
        return [.message(OSCMessage("/preset/saved", [.string(name)]))]
    }

    /// `s name [f fade] [s scope]`: the fade from the message, else the file's,
    /// else the smoothing time.
    private func recall(_ args: ArgumentReader) throws(ArgumentReader.Failure) -> [OSCPacket] {
        let received = ContinuousClock.now
        let (name, fade, scopeText) = try args.recallArguments()
        var scope = RecallScope.all
        if let scopeText {
            guard let parsed = RecallScope(scopeText) else {
                throw ArgumentReader.Failure(reason: "unknown scope '\(scopeText)' (sources, matrix, outputs, master, or a comma-separated list)")
            }
            scope = parsed
        }
        let preset = try attempt { try store.load(name) }
        let (fitted, skipped) = preset.fitted(inputs: state.scene.inputCount, outputs: state.scene.outputCount)
        var target = state.scene
        if scope.contains(.sources) {
            for n in target.sources.indices where !state.safes.sources.contains(n + 1) { target.sources[n] = fitted.sources[n] }
        }
        if scope.contains(.matrix) { target.crosspoints = fitted.crosspoints }
        if scope.contains(.outputs) {
            for m in target.outputs.indices where !state.safes.outputs.contains(m + 1) { target.outputs[m] = fitted.outputs[m] }
        }
        if scope.contains(.master) && !state.safes.master { target.master = fitted.master }

        let seconds = Float(fade ?? preset.fade ?? Double(smoothing))
        undoState = state
        var changes: [Change] = []
        transition(to: target, seconds: seconds, into: &changes)
        submit(changes)
        state.preset = name
        state.modified = false
        sceneChanged = false
        let prepared = ContinuousClock.now - received
        logger.notice("recalled preset '\(name)' over \(seconds) s: \(changes.count) parameters move (read and prepared in \(prepared))")
        var replies: [OSCPacket] = [.message(OSCMessage("/preset/recalled", [.string(name), .float(seconds)]))]
        if !skipped.isEmpty {
            let text = skipped.joined(separator: "; ")
            logger.warning("preset '\(name)' is larger than the rig; skipped \(text)")
            replies.append(.message(OSCMessage("/preset/skipped", [.string(name), .string(text)])))
        }
        return replies
    }

    /// Back to the state before the last recall (safe parts keep their live
    /// values); a second undo goes forward again.
    private func undo(fade: Double?) throws(ArgumentReader.Failure) -> [OSCPacket] {
        guard let previous = undoState else { throw ArgumentReader.Failure(reason: "nothing to undo") }
        var target = previous.scene
        for n in state.safes.sources { target.sources[n - 1] = state.scene.sources[n - 1] }
        for m in state.safes.outputs { target.outputs[m - 1] = state.scene.outputs[m - 1] }
        if state.safes.master { target.master = state.scene.master }
        let seconds = Float(fade ?? Double(smoothing))
        undoState = state
        var changes: [Change] = []
        transition(to: target, seconds: seconds, into: &changes)
        submit(changes)
        state.preset = previous.preset
        state.modified = previous.modified
        sceneChanged = false
        logger.notice("undid the last recall over \(seconds) s")
        return [.message(OSCMessage("/preset/undone", [.string(previous.preset ?? "")]))]
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
