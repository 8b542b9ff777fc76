import Delivery
import Catalogue
import FoundationEssentials
import Logging
import MixCore
import OSC

/// Bundles: their messages take effect together, and a bundle for later
/// takes effect at its time, to the sample. Its audio changes are worked out
/// on arrival (`rehearse`) and handed to the mixer stamped with the time; its
/// messages wait in the `BundleScheduler` and change the scene when the audio
/// has reached that time (`handleScheduled`), before any packet that comes
/// after (`catchUp`).
extension Controller {
    /// A bundle, whole (`serial` held, due bundles handled). Its messages
    /// take effect together: their changes go to the mixer as one batch. A
    /// bundle whose time tag lies ahead is kept whole: its changes are worked
    /// out now and handed to the mixer stamped with its time (they apply at
    /// that frame), and the messages wait in the `BundleScheduler` to change
    /// the scene, reply and feed back at their time. So does one whose time
    /// has passed by the wall clock but not yet by the audio (a busy
    /// machine's audio lags the wall clock): applied at once, it would land
    /// before its time. One the audio has passed applies at once, and its
    /// sender is told `/late ,sf address seconds` (the address of its first
    /// message) when it came more than 1 ms after its time.
    func handle(_ bundle: OSCBundle, from peer: OSCPeer) -> [OSCPacket] {
        live.lock.withLock { _ in
            defer { live.flush() }
            let ahead = bundle.timeTag.isImmediate ? 0 : bundle.timeTag.unixTime - Date().timeIntervalSince1970
            if ahead > Self.bundleHorizon {
                return refuse(bundle, "time tag more than an hour ahead", from: peer)
            }
            if let scheduler, !bundle.timeTag.isImmediate,
               ahead > 0 || scheduler.audioHasYetToReach(bundle.timeTag.unixTime) {
                return hold(bundle, due: bundle.timeTag.unixTime, from: peer, in: scheduler)
            }
            var late: [OSCPacket] = []
            if ahead < -0.001 {
                lateBundles.add(1, ordering: .relaxed)
                if let first = bundle.messages.first {
                    late = [.message(OSCMessage(Reply.Name.late.address, [.string(first.address), .float(Float(-ahead))]))]
                    live.log.info("late bundle from \(peer): \(first.address) \(-ahead) s after its time")
                }
            }
            return late + bundle.messages.flatMap { process($0, from: peer) }
        }
    }

    /// A bundle none of which applies: its first message is answered with
    /// the reason.
    private func refuse(_ bundle: OSCBundle, _ reason: String, from peer: OSCPeer) -> [OSCPacket] {
        bundle.messages.first.map { reject($0, reason, from: peer) } ?? []
    }

    /// A bundle for later: its audio changes go to the mixer now, stamped
    /// with its time; its messages wait for that time in the scheduler. What
    /// waits is bounded: a bundle that would cross a limit is refused with an
    /// `/error` at the message that crosses it (the address of the first
    /// when only its staged changes do), and none of it applies.
    private func hold(_ bundle: OSCBundle, due: Double, from peer: OSCPeer,
                      in scheduler: BundleScheduler) -> [OSCPacket] {
        if let reason = scheduler.refusal(bytes: 0, from: peer) { return refuse(bundle, reason, from: peer) }
        var bytes = 0
        for message in bundle.messages {
            bytes += 16 + message.encodedSize
            if let reason = scheduler.refusal(bytes: bytes, from: peer) { return reject(message, reason, from: peer) }
        }
        let staged = rehearse(bundle.messages, from: peer)
        bytes += staged.count * MemoryLayout<Change>.stride
        if let reason = scheduler.schedule(bundle.messages, at: due, from: peer, staged: staged, bytes: bytes) {
            live.log.warning("dropped a bundle from \(peer): \(reason)")
            let address = bundle.messages.first?.address ?? ""
            return [.message(OSCMessage(Reply.Name.error.address, [.string(address), .string(reason)]))]
        }
        mixer.submit(staged, due: due)
        return []
    }

    /// The audio changes `messages` will make, worked out now on the state
    /// as it stands, which is then put back as it was: nothing is saved,
    /// replied, fed back or logged. Only parameter changes, recalls and
    /// undos are rehearsed; the rest waits for the bundle's time.
    private func rehearse(_ messages: [OSCMessage], from peer: OSCPeer) -> [Change] {
        live.rehearse {
            for message in messages { _ = dispatch(message, from: peer) }
        }
    }

    /// Bundles that arrived after their time.
    public var lateBundleCount: Int { lateBundles.load(ordering: .relaxed) }

    /// Bundles whose frame the audio has played change the scene before
    /// anything that arrives after them, as they did the audio: a packet
    /// then acts on the scene the bundle left, not on the one before it.
    /// Called by the scheduler's thread when one comes due; `handle` does
    /// the same before every packet. Replies go through `reply`.
    public func releaseDueBundles() {
        serial.withLock { _ in catchUp() }
    }

    /// Handles the bundles now due, earliest first (`serial` held).
    func catchUp() {
        guard let scheduler, scheduler.waiting > 0 else { return }
        for bundle in scheduler.takeDue() {
            let replies = live.lock.withLock { _ in applyScheduled(bundle.messages, from: bundle.peer, staged: bundle.staged) }
            for packet in replies { subscriptions.reply(packet, bundle.peer) }
        }
    }

    /// A bundle whose time has come, from the scheduler: the scene changes,
    /// replies (errors, query answers) go to `reply`, and feedback goes out.
    /// The audio thread was given `staged` for it on arrival; should the
    /// scene have moved meanwhile so that the bundle now means something else
    /// (another solo, a different undo), only the difference follows, now.
    public func handleScheduled(_ messages: [OSCMessage], from peer: OSCPeer, staged: [Change],
                                reply: (OSCPacket, OSCPeer) -> Void) {
        let replies = serial.withLock { _ in
            catchUp()
            return live.lock.withLock { _ in applyScheduled(messages, from: peer, staged: staged) }
        }
        for packet in replies { reply(packet, peer) }
    }

    /// `handleScheduled` under the lock: the messages' replies. Their changes
    /// do not go to the mixer: only the corrections to `staged` do.
    private func applyScheduled(_ messages: [OSCMessage], from peer: OSCPeer, staged: [Change]) -> [OSCPacket] {
        let layout = live.ramps
        let replies = messages.flatMap { process($0, from: peer) }
        // A resize among its messages: what was staged moved with it.
        let staged = layout == live.ramps ? staged : RampLayout.restage(staged, by: layout.remap(to: live.ramps))
        let corrections = corrections(made: live.pending, staged: staged)
        live.pending.removeAll(keepingCapacity: true)
        if !corrections.isEmpty {
            live.log.info("a bundle from \(peer) changed meaning while it waited; \(corrections.count) parameters corrected at its time")
            mixer.submit(corrections)
        }
        return replies
    }

    /// The changes the audio thread still needs after it applied `staged`
    /// for a bundle whose messages have now made `made`: those that differ,
    /// and, for parameters staged but not made, their value in the scene.
    func corrections(made: [Change], staged: [Change]) -> [Change] {
        var planned: [Int32: Change] = [:]
        for change in staged { planned[change.ramp] = change }
        var final: [Int32: Change] = [:]
        for change in made { final[change.ramp] = change }
        var result = final.values.filter { planned[$0.ramp] != $0 }
        let unplanned = planned.keys.filter { final[$0] == nil }
        if !unplanned.isEmpty {
            var scene: [Int32: Change] = [:]
            for change in catalogue.changes(toReach: live.state.scene, in: live.ramps, seconds: live.smoothing,
                                            sides: mixer.layout.sides) {
                scene[change.ramp] = change
            }
            result += unplanned.compactMap { ramp in
                guard let change = scene[ramp] else { return nil }
                return planned[ramp] == change ? nil : change
            }
        }
        return result.sorted { $0.ramp < $1.ramp }
    }

    /// Whether a timed bundle's message is worked out ahead of its time: those
    /// that move parameters (all of which are undone after the rehearsal).
    static func isRehearsed(_ targets: [Target], _ message: OSCMessage) -> Bool {
        switch targets.first {
        case .command(let name)?:
            // The catalogue says which commands reach the audio (`Command.movesAudio`).
            let command = Catalogue.command(name)
            return command.movesAudio && (command.effect != .changesWithArguments || !message.arguments.isEmpty)
        case .recallPreset?: return true
        case .touch?, .current?, nil: return false
        case .parameter?, .delta?, .safe?: return !message.arguments.isEmpty
        }
    }
}
