import OSC

/// The sessions that hold subscriptions, on the `Sessions`' roll:
/// every subscription goes through here, so that feedback and meters count
/// in the same limits, and a session that makes room loses both.
extension Controller {
    /// Enters a subscription of `kind` for `session` (a feedback destination,
    /// or a meter client); ends the least recently heard session's
    /// subscriptions when a limit is reached.
    func admit(_ session: OSCPeer, _ kind: SessionRoll.Kind) {
        guard let (evicted, among) = sessions.admit(session, kind) else { return }
        subscriptions.depart(evicted)
        live.log.notice("\(evicted): subscriptions ended to make room for \(session) (the least recently heard of \(among))")
    }

    /// A session shown to be gone (its connection closed, its port
    /// unreachable): every subscription it had ends. Callable from any thread.
    public func depart(_ session: OSCPeer) {
        // Under the scene's lock, as a message is: a departure never comes
        // between a subscription and its entry on the roll.
        live.lock.withLock { _ in
            if sessions.depart(session) { logger.notice("\(session) logged out: gone") }
            subscriptions.depart(session)
        }
    }
}

extension Controller {
    /// Waits until the full state of every subscription made so far is
    /// queued for its subscriber: in tests.
    public func waitForFullStates() {
        subscriptions.fullStates.sync {}
    }
}
