import FoundationEssentials
import Logging
import MixCore
import OSC

/// Bundles: their messages take effect together, and a bundle for later
/// takes effect at its time, to the sample. Its audio changes are worked out
/// on arrival (`rehearse`) and handed to the mixer stamped with the time; its
/// messages wait in the `BundleScheduler` and change the scene when the audio
/// has reached that time (`handleScheduled`), before any message that comes
/// after (`catchUp`).
extension Controller {
    /// The messages of a bundle take effect together: their changes are held
    /// back until the bundle ends, then handed over as one batch. A bundle
    /// whose time tag lies ahead is kept whole; when it ends, its changes are
    /// worked out and handed to the mixer stamped with its time (they apply
    /// at that frame), and the messages wait in the `BundleScheduler` to
    /// change the scene, reply and feed back at their time. One that arrives
    /// after its time applies at once and its sender is told
    /// `/late ,sf address seconds`.
    public func bundleStarted(at time: OSCTimeTag = .immediately, from peer: OSCPeer? = nil) {
        catchUp()
        lock.withLock { _ in
            bundleDepth += 1
            guard bundleDepth == 1, !time.isImmediate, let peer else { return }
            let ahead = time.unixTime - Date().timeIntervalSince1970
            if ahead > Self.bundleHorizon {
                refusal = "time tag more than an hour ahead"
            } else if ahead > 0, let scheduler {
                if let reason = scheduler.refusal(bytes: 0, from: peer) {
                    refusal = reason
                } else {
                    held = (time.unixTime, peer, [], 0)
                }
            } else if ahead < -0.001 {
                lateBy = -ahead
                lateBundles += 1
            }
        }
    }

    public func bundleEnded() {
        let refused = lock.withLock { _ -> (OSCPacket, OSCPeer)? in
            bundleDepth = max(0, bundleDepth - 1)
            guard bundleDepth == 0 else { return nil }
            lateBy = nil
            refusal = nil
            refusedFirst = false
            var refused: (OSCPacket, OSCPeer)?
            if let bundle = held {
                held = nil
                refused = schedule(bundle)
            }
            flush()
            return refused
        }
        if let (packet, peer) = refused { reply(packet, peer) }
    }

    /// A bundle for later: its audio changes go to the mixer now, stamped
    /// with its time; its messages wait for that time in the scheduler.
    /// Returns the `/error` for its sender when it cannot wait.
    private func schedule(_ bundle: (due: Double, peer: OSCPeer, messages: [OSCMessage], bytes: Int))
        -> (OSCPacket, OSCPeer)? {
        guard let scheduler else { return nil }
        let staged = rehearse(bundle.messages, from: bundle.peer)
        let bytes = bundle.bytes + staged.count * MemoryLayout<Change>.stride
        if let reason = scheduler.schedule(bundle.messages, at: bundle.due, from: bundle.peer,
                                           staged: staged, bytes: bytes) {
            logger.warning("dropped a bundle from \(bundle.peer): \(reason)")
            let address = bundle.messages.first?.address ?? ""
            return (.message(OSCMessage("/error", [.string(address), .string(reason)])), bundle.peer)
        }
        mixer.submit(staged, due: bundle.due)
        return nil
    }

    /// The audio changes `messages` will make, worked out now on the state
    /// as it stands, which is then put back as it was: nothing is saved,
    /// replied, fed back or logged. Only parameter changes, recalls and
    /// undos are rehearsed; the rest waits for the bundle's time.
    private func rehearse(_ messages: [OSCMessage], from peer: OSCPeer) -> [Change] {
        let saved = (state, undoState, logger, sceneChanged, touched, pending)
        pending.removeAll(keepingCapacity: true)
        rehearsing = true
        logger = Logger(label: logger.label, factory: { _ in SwiftLogNoOpLogHandler() })
        bundleDepth += 1
        for message in messages { _ = dispatch(message, from: peer) }
        let changes = pending
        bundleDepth -= 1
        rehearsing = false
        (state, undoState, logger, sceneChanged, touched, pending) = saved
        return changes
    }

    /// A bundle broke off part-way (a malformed element): whatever of it was
    /// held for later is dropped, and what was already applied goes to the
    /// audio thread, so that the rig never stays inside a bundle.
    public func bundleAborted() {
        lock.withLock { _ in
            if held != nil { logger.warning("dropped a malformed bundle from \(held!.peer)") }
            held = nil
            bundleDepth = 0
            lateBy = nil
            refusal = nil
            refusedFirst = false
            flush()
        }
    }

    /// Bundles that arrived after their time.
    public var lateBundleCount: Int { lock.withLock { _ in lateBundles } }

    /// Bundles whose frame the audio has played change the scene before
    /// anything that arrives after them, as they did the audio: a message
    /// then acts on the scene the bundle left, not on the one before it.
    /// Called before every message and bundle, and by the scheduler's thread
    /// when one comes due (never at the same time as a message: the caller
    /// holds the dispatch). Replies go through `send`.
    public func releaseDueBundles() { catchUp() }

    func catchUp() {
        guard let scheduler, scheduler.waiting > 0,
              lock.withLock({ _ in bundleDepth == 0 && !catchingUp }) else { return }
        let due = scheduler.takeDue()
        guard !due.isEmpty else { return }
        lock.withLock { _ in catchingUp = true }
        defer { lock.withLock { _ in catchingUp = false } }
        for bundle in due {
            handleScheduled(bundle.messages, from: bundle.peer, staged: bundle.staged, reply: reply)
        }
    }

    /// A bundle whose time has come, from the scheduler: the scene changes,
    /// replies (errors, query answers) go to `reply`, and feedback goes out.
    /// The audio thread was given `staged` for it on arrival; should the
    /// scene have moved meanwhile so that the bundle now means something else
    /// (another solo, a different undo), only the difference follows, now.
    public func handleScheduled(_ messages: [OSCMessage], from peer: OSCPeer, staged: [Change],
                                reply: (OSCPacket, OSCPeer) -> Void) {
        bundleStarted()
        for message in messages {
            for packet in handle(message, from: peer) { reply(packet, peer) }
        }
        lock.withLock { _ in
            bundleDepth = max(0, bundleDepth - 1)
            guard bundleDepth == 0 else { return }
            let corrections = corrections(made: pending, staged: staged)
            pending.removeAll(keepingCapacity: true)
            if !corrections.isEmpty {
                logger.info("a bundle from \(peer) changed meaning while it waited; \(corrections.count) parameters corrected at its time")
                mixer.submit(corrections)
            }
        }
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
            for change in catalogue.changes(toReach: state.scene, in: ramps, seconds: smoothing) {
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
        case .preset(.recall)?, .preset(.undo)?, .matrixClear?: true
        case .preset?, .subscribe?, .unsubscribe?, .metersSubscribe?, .metersUnsubscribe?, .status?, .ping?, nil: false
        default: !message.arguments.isEmpty
        }
    }
}
