import Dispatch
import Synchronization
import SystemSupport

/// The feedback thread: when it takes its turns.
extension FeedbackHub {
    /// Sends what is due and lets leases lapse, until `stop()`. A turn comes
    /// every 33 ms (`minimumInterval`), where `everyUpdate` is called first
    /// (the values of fading parameters are published there:
    /// `Controller.publishFades`); sooner when a change comes at an address
    /// quiet for 33 ms (`fresh`), a millisecond later; and every millisecond
    /// while a subscriber has more than its pace let go. Call on its own thread.
    ///
    /// Why every 33 ms rather than whenever an address falls due: an address
    /// sent at a turn can go again at the next one, so the addresses that
    /// keep moving (faders under fingers, fades) travel together, one
    /// datagram per subscriber a turn, instead of each at its own time.
    public func run(everyUpdate: (ContinuousClock.Instant) -> Void = { _ in }) {
        var lastUpdate = ContinuousClock.now
        while !stopping.load(ordering: .relaxed) {
            if behind.load(ordering: .relaxed) {
                Thread.sleep(forTimeInterval: Self.busyTick)
            } else if rest(until: lastUpdate + Self.minimumInterval) {
                Thread.sleep(forTimeInterval: Self.busyTick)
            }
            freshQueued.store(false, ordering: .sequentiallyConsistent)
            let now = ContinuousClock.now
            if now - lastUpdate >= Self.minimumInterval {
                everyUpdate(now)
                lastUpdate = now
            }
            for (destination, packets) in turn(at: now) {
                for packet in packets { send(packet, destination) }
            }
        }
    }

    /// Sleeps until `deadline`, or until a fresh change is queued (`wake`):
    /// whether one was.
    private func rest(until deadline: ContinuousClock.Instant) -> Bool {
        let left = deadline - .now
        guard left > .zero else { return false }
        resting.store(true, ordering: .sequentiallyConsistent)
        // Queued since the last turn began: no rest.
        if freshQueued.load(ordering: .sequentiallyConsistent) {
            resting.store(false, ordering: .sequentiallyConsistent)
            return true
        }
        let nanoseconds = Int(left.components.seconds) * 1_000_000_000 + Int(left.components.attoseconds / 1_000_000_000)
        let woken = alarm.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
        resting.store(false, ordering: .sequentiallyConsistent)
        return woken
    }

    /// Something was queued that may go at once: the thread takes a turn.
    func wake() {
        freshQueued.store(true, ordering: .sequentiallyConsistent)
        if resting.exchange(false, ordering: .sequentiallyConsistent) { alarm.signal() }
    }

    public func stop() {
        stopping.store(true, ordering: .relaxed)
        wake()
    }

    /// Notes that `values` changed for everyone now (under `state`'s lock):
    /// whether any of them is fresh, its address unchanged for 33 ms, and so
    /// likely to be due at once for every subscriber. A change at an address
    /// that keeps moving waits for the next turn: it was sent less than
    /// 33 ms ago and could not go sooner.
    func noteChanges(_ values: [FeedbackValue], at now: ContinuousClock.Instant) -> Bool {
        var fresh = false
        for value in values {
            if let last = recentChanges.updateValue(now, forKey: value.slot), now - last < Self.minimumInterval { continue }
            fresh = true
        }
        // Kept small, as a subscriber's send times are (`take`): a recall
        // changes every address at once.
        if recentChanges.count > 2 * recentChangesKept + Self.sendTimesKept {
            recentChanges = recentChanges.filter { now - $0.value < Self.minimumInterval }
            recentChangesKept = recentChanges.count
        }
        return fresh
    }
}
