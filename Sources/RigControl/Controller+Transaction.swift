import OSC

/// The one way the show changes (`Show`): a transaction, under the scene's
/// lock, that does the whole envelope of a change, for a client's message,
/// a recall and the rig's own reports (JACK's) alike.
extension Controller {
    /// Where a change comes from: a client's message, whose sender is
    /// heard (its session, feedback subscription and meters renewed), or
    /// the rig itself (what the JACK supervisor reports or claims).
    enum Origin {
        case client(OSCPeer)
        case rig
    }

    /// Runs `body` as one transaction: nothing touched or changed yet, the
    /// sender heard, then `body`; after it, the scene marked modified if it
    /// changed, the state keeper told of any change of the rig state,
    /// feedback published for what was touched, and the preset state (the
    /// current preset, its modified mark, the list) to subscribers if it
    /// changed. `body`'s changes for the audio thread wait in the show's
    /// `pending` for the packet's end (`LiveScene.flush`). Under the lock.
    func transaction(_ origin: Origin, _ body: () -> [OSCPacket]) -> [OSCPacket] {
        live.beginMessage()
        if case .client(let peer) = origin { hear(peer) }
        let before = (live.state.safes, live.state.preset, live.state.modified)
        let replies = body()
        if live.changed { live.state.modified = true }
        if live.changed || live.rewired || before != (live.state.safes, live.state.preset, live.state.modified) {
            live.stateChanged()
        }
        // Feedback is built only when someone listens.
        if !live.touched.isEmpty && subscriptions.isListening {
            subscriptions.publish(live.feedbackMessages(for: live.touched, in: live.state))
        }
        // The preset state is feedback too: a page or a layout shows which
        // preset is current, and the list, as anyone changes them.
        let listChanged = presets.takeListChanged()
        if let feedback = subscriptions.feedback, feedback.count > 0 {
            var messages: [OSCMessage] = []
            if before.1 != live.state.preset || before.2 != live.state.modified { messages.append(presets.currentPreset()) }
            if listChanged { messages.append(presets.presetList()) }
            feedback.publish(messages)
        }
        return replies
    }

    /// A client heard from: its session, its feedback subscription (a full
    /// state to a subscriber just shown alive) and its meters renewed.
    private func hear(_ peer: OSCPeer) {
        if let feedback = subscriptions.feedback {
            let (renewed, alive) = feedback.renew(peer)
            sessions.heard(renewed + [peer])
            if let (destination, subscription) = alive {
                sendFullState(to: destination, subscription: subscription, levelForms: feedback.levelForms(of: destination),
                              through: feedback)
            }
        } else {
            sessions.heard([peer])
        }
        subscriptions.meters?.renew(peer)
    }
}
