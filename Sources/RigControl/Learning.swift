import Catalogue
import OSC
import Synchronization

/// MIDI learn's requests (`/midi/learn`, `/midi/forget`; docs/surfaces.md,
/// "Learn"), between the controller that checks them and the surface desk
/// whose thread owns the controllers' maps and carries them out. One part
/// of the controller, owning its state and its lock (a leaf: nothing is
/// called while it is held).
public final class Learning: Sendable {
    /// A parameter waiting for a control to move.
    public struct Armed: Sendable {
        /// The parameter's address as a map names it (`/source/4/mute`,
        /// a level's linear one: `/source/1/volume`).
        public let address: String
        /// A level learnt in dB (asked for at its `/db` address) rather
        /// than as a fader's travel.
        public let inDecibels: Bool
        /// Who asked: told what was learnt, or why a control cannot be.
        public let peer: OSCPeer
        /// Which arming it is: a learn armed again (by anyone) is another.
        public let serial: Int
        let until: ContinuousClock.Instant
        /// Reasons already sent for controls that do not suit it: each once.
        var refused: Set<String> = []
    }

    /// A `/midi/forget` waiting for the desk.
    public struct Forget: Sendable {
        public let address: String
        public let peer: OSCPeer
    }

    /// The plain MIDI controllers' names (`serve --midi`): those that learn.
    public let controllers: [String]
    private let state = Mutex<(armed: Armed?, forgets: [Forget], serial: Int)>((nil, [], 0))
    /// Whether a learn may be armed, read by the desk for every event without the lock.
    private let armedFlag = Atomic<Bool>(false)
    /// Forgets waiting at once, at most: more are refused.
    static let waitingForgets = 64

    public init(controllers: [String]) {
        self.controllers = controllers
    }

    /// Arms a learn of `address` for `Catalogue.learnWindow` seconds, in
    /// place of any armed before.
    func arm(_ address: String, inDecibels: Bool, for peer: OSCPeer) {
        let until = ContinuousClock.now + .seconds(Catalogue.learnWindow)
        state.withLock { state in
            state.serial += 1
            state.armed = Armed(address: address, inDecibels: inDecibels, peer: peer, serial: state.serial, until: until)
        }
        armedFlag.store(true, ordering: .releasing)
    }

    /// Queues a forget; false if too many wait already.
    func forget(_ address: String, for peer: OSCPeer) -> Bool {
        state.withLock { state in
            guard state.forgets.count < Self.waitingForgets else { return false }
            state.forgets.append(Forget(address: address, peer: peer))
            return true
        }
    }

    /// The learn armed now, if any (one whose time ran out is dropped).
    public func armed() -> Armed? {
        guard armedFlag.load(ordering: .acquiring) else { return nil }
        return state.withLock { state in
            if let armed = state.armed, armed.until < .now { state.armed = nil }
            if state.armed == nil { armedFlag.store(false, ordering: .releasing) }
            return state.armed
        }
    }

    /// Ends the learn `armed` (it was bound, or cannot be), if it is still the one armed.
    public func end(_ armed: Armed) {
        state.withLock { state in
            guard state.armed?.serial == armed.serial else { return }
            state.armed = nil
            armedFlag.store(false, ordering: .releasing)
        }
    }

    /// Whether `reason` is new for the learn `armed` (so it is sent once,
    /// however often the unsuited control moves).
    public func firstRefusal(_ reason: String, of armed: Armed) -> Bool {
        state.withLock { state in
            guard state.armed?.serial == armed.serial else { return false }
            return state.armed?.refused.insert(reason).inserted ?? false
        }
    }

    /// The forgets waiting, taken.
    public func takeForgets() -> [Forget] {
        state.withLock { state in
            defer { state.forgets = [] }
            return state.forgets
        }
    }
}
