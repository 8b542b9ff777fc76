import Catalogue
import OSC

extension FeedbackHub {
    /// One subscriber's feedback: where it stands with its pace, what waits
    /// for it, and what it must not be sent back. A class, kept by
    /// reference in the hub's table: every message a client sends and every
    /// change published visits each subscriber, and a value type would copy
    /// its every table at each visit.
    final class Subscriber {
        /// The source address of the client's own messages (renews the lease).
        var client: OSCPeer
        var lastSeen: ContinuousClock.Instant
        let pace: Pace
        /// Datagrams it may be sent now (`Pace.datagrams`), and when that was worked out.
        var allowance: Double = 0
        var refilled: ContinuousClock.Instant
        /// Since when a stream has had no room while feedback waits for it.
        var stalled: ContinuousClock.Instant?
        /// What waits for it, by address number (`AddressTable`): values
        /// shared with every other subscriber they were queued for.
        var pending: [Int32: FeedbackValue] = [:]
        /// Addresses waiting to be sent, oldest first.
        var order = FeedbackQueue<Int32>()
        /// When the first address waiting can go (each waits 33 ms after
        /// its last send): a turn before then passes this subscriber by.
        /// Nil: look at the next turn (something new was queued, or the
        /// last turn stopped at its pace).
        var nextDue: ContinuousClock.Instant?
        var lastSent: [Int32: ContinuousClock.Instant] = [:]
        /// How many send times were left at the last clearing of old ones.
        var lastSentKept = 0
        /// What the client itself last set at each address, and when: not echoed.
        var ownValues: [Int32: (arguments: [OSCArgument], at: ContinuousClock.Instant)] = [:]
        /// Addresses of the parameters under the client's finger, and when
        /// the finger was last heard: not sent while it holds.
        var touching: [Int32: ContinuousClock.Instant] = [:]
        /// Its full state is being made: nothing is sent until it is queued
        /// (`publishFullState`), so that it never overtakes a change made
        /// since. The number of the subscription whose full state it awaits:
        /// a full state made for an earlier `/subscribe` is older, and dropped.
        var awaitingFullState: Int?
        /// A destination on another machine that did not ask itself (a
        /// `/subscribe PORT` from another port): its full state waits until
        /// it is shown alive, a message from it (`renew`), so that one
        /// forged request cannot send 200,000 messages to someone else's port.
        var fullStateOnProof = false
        /// The forms of levels it asked for (`/subscribe/forms`); nil: every form.
        var levelForms: Set<Parameter.Form>?
        /// It is sent what the shared queue sends (`FeedbackHub+Sharing`):
        /// its own queue is empty and stays so while this holds.
        var sharing = false

        init(client: OSCPeer, pace: Pace, at now: ContinuousClock.Instant) {
            self.client = client
            self.lastSeen = now
            self.pace = pace
            self.refilled = now
            if case .datagrams(_, let burst) = pace { allowance = burst }
        }

        /// Whether it is sent values written in `form`: plain ones always,
        /// a level's forms as it asked.
        func takes(_ form: Parameter.Form) -> Bool {
            form == .plain || levelForms?.contains(form) ?? true
        }

        /// Whether feedback waits for it that a turn may send.
        var hasQueued: Bool { awaitingFullState == nil && !order.isEmpty }
    }
}
