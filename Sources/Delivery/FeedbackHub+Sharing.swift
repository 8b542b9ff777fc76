import OSC

/// Feedback shared: the subscribers that take every change as it is, at
/// the same pace, share one queue, so that a change is queued once rather
/// than once per subscriber, and a turn takes its bundles once and sends
/// the same bytes to each of them.
///
/// A subscriber shares the queue while it is plain: it takes every form,
/// is sent over UDP at the queue's pace (where it is: the first to join
/// sets it), has no value of its own held back (no echo), no finger on a
/// control, no full state to wait for, and keeps its pace. When that
/// stops (it sets a value, touches, asks for some forms, subscribes again,
/// is sent something of its own, or runs out of allowance), it leaves with
/// a copy of what waits in the shared queue and when each address was last
/// sent, so it loses nothing, gets nothing twice and keeps each address's
/// 33 ms. It joins again at the end of a turn once its own queue and the
/// shared one are both empty and its last sends are older than 33 ms. All
/// of this runs under `state`'s lock.
extension FeedbackHub {
    /// `subscriber` on its own again, with what the shared queue still
    /// holds for it.
    func leaveSharing(_ subscriber: Subscriber) {
        guard subscriber.sharing else { return }
        subscriber.sharing = false
        guard let sharedQueue else { return }
        (subscriber.pending, subscriber.order) = (sharedQueue.pending, sharedQueue.order)
        (subscriber.lastSent, subscriber.lastSentKept) = (sharedQueue.lastSent, sharedQueue.lastSentKept)
        subscriber.nextDue = sharedQueue.nextDue
    }

    /// The shared queue's turn: its bundles taken once, as many as the
    /// least allowance among those sharing it lets go, and each of them
    /// given the lot. One out of allowance leaves it first. Whether what
    /// is left waits for pace rather than for the 33 ms.
    func takeShared(from subscribers: [OSCPeer: Subscriber], now: ContinuousClock.Instant,
                    into result: inout [(OSCPeer, [[FeedbackValue]])]) -> Bool {
        guard let queue = sharedQueue, !queue.order.isEmpty else { return false }
        if let next = queue.nextDue, now < next { return false }
        var sharing: [(OSCPeer, Subscriber)] = []
        var budget = Int.max
        for (destination, subscriber) in subscribers where subscriber.sharing {
            let allowed = Self.budget(subscriber, room: nil, now: now)
            if allowed < 1 {
                leaveSharing(subscriber)
            } else {
                sharing.append((destination, subscriber))
                budget = min(budget, allowed)
            }
        }
        guard !sharing.isEmpty else { return false }
        let packets = Self.take(from: queue, now: now, budget: budget)
        if !packets.isEmpty {
            for (destination, subscriber) in sharing {
                subscriber.allowance -= Double(packets.count)
                result.append((destination, packets))
            }
        }
        guard !queue.order.isEmpty, packets.count >= budget else { return false }
        queue.nextDue = nil
        return true
    }

    /// At a turn's end: each plain subscriber with nothing left of its own
    /// joins the shared queue, if that is empty too (made the first time).
    func joinSharing(_ subscribers: [OSCPeer: Subscriber], now: ContinuousClock.Instant) {
        // No one shares it (the last left, or was removed): what it held is
        // no one's, and the next to join sets its pace.
        if !subscribers.values.contains(where: \.sharing) { sharedQueue = nil }
        if let queue = sharedQueue, !queue.pending.isEmpty { return }
        for subscriber in subscribers.values where !subscriber.sharing && Self.isPlain(subscriber, now: now) {
            // One pace to a queue: a tablet on Wi-Fi does not slow a client on this machine.
            if let queue = sharedQueue, queue.pace != subscriber.pace { continue }
            let queue = sharedQueue ?? Subscriber(client: subscriber.client, pace: subscriber.pace, at: now)
            sharedQueue = queue
            subscriber.sharing = true
            (subscriber.pending, subscriber.order, subscriber.nextDue) = ([:], FeedbackQueue(), nil)
            (subscriber.lastSent, subscriber.lastSentKept) = ([:], 0)
        }
    }

    /// Whether `subscriber` takes every change as it is, with nothing of
    /// its own waiting or held back, and nothing sent in the last 33 ms.
    static func isPlain(_ subscriber: Subscriber, now: ContinuousClock.Instant) -> Bool {
        guard case .datagrams = subscriber.pace, subscriber.levelForms == nil, subscriber.awaitingFullState == nil,
              !subscriber.fullStateOnProof, subscriber.pending.isEmpty, subscriber.touching.isEmpty,
              subscriber.ownValues.isEmpty else { return false }
        return subscriber.lastSent.values.allSatisfy { now - $0 >= minimumInterval }
    }
}
