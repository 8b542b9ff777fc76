import Catalogue
import Logging
import MixCore
import OSC
import Presets
import SceneModel
import Synchronization

/// The scene as it plays, and its changes: the show (`Show`: the rig state,
/// the state before the last recall, the fades under way, the ramp layout,
/// and what the message under way touched, changed and staged), as one
/// value. One part of the controller, owning that value and its lock.
///
/// The controller holds `lock` around each message of a packet (a bundle:
/// around all of them), so that readers on other threads (the state keeper,
/// OSCQuery's answers, the preset writer's completions, the feedback
/// thread's fades) never see half a message; each message is one
/// transaction (`Controller.transaction`). Everything below marked "under
/// the lock" is read and written only while it is held.
final class LiveScene: @unchecked Sendable {
    let mixer: Mixer
    let catalogue: Catalogue
    /// The ramp time of a change that names no fade, in seconds.
    let smoothing: Float
    /// The scene's addresses: they follow its size (`resize`), and are read
    /// off the lock too (a full state's messages, OSCQuery's descriptions).
    var addressSpace: AddressSpace { space.withLock { $0 } }
    let space: Mutex<AddressSpace>
    /// The direct out of a source added while the rig plays (`serve --direct-outs`).
    let directOuts: DirectTap
    /// Told after every change of the rig state (scene, safes, preset), under the lock.
    let stateChanged: @Sendable () -> Void
    private let logger: Logger
    private let quiet = Logger(label: "crosspoint.rehearsal", factory: { _ in SwiftLogNoOpLogHandler() })
    let lock = Mutex<Void>(())

    /// Everything a message may change. Under the lock.
    var show: Show
    /// True while a timed bundle's audio changes are worked out ahead of its time.
    var rehearsing = false

    // The show's parts by name. Under the lock.
    var state: RigState { get { show.state } _modify { yield &show.state } }
    var undoState: RigState? { get { show.undoState } _modify { yield &show.undoState } }
    var ramps: RampLayout { get { show.ramps } _modify { yield &show.ramps } }
    var fades: FadeBook { get { show.fades } _modify { yield &show.fades } }
    var pending: [Change] { get { show.pending } _modify { yield &show.pending } }
    var touched: [Target] { get { show.touched } _modify { yield &show.touched } }
    var changed: Bool { get { show.changed } _modify { yield &show.changed } }
    var rewired: Bool { get { show.rewired } _modify { yield &show.rewired } }

    init(state: RigState, mixer: Mixer, catalogue: Catalogue, smoothing: Float, directOuts: DirectTap = .off,
         logger: Logger, stateChanged: @escaping @Sendable () -> Void) {
        self.directOuts = directOuts
        show = Show(state: state, ramps: mixer.rampLayout)
        self.mixer = mixer
        self.catalogue = catalogue
        self.smoothing = smoothing
        space = Mutex(AddressSpace(counts: catalogue.counts(of: state.scene), catalogue: catalogue))
        self.logger = logger
        self.stateChanged = stateChanged
    }

    /// The logger of the message under way: silent while rehearsing (a
    /// rehearsal logs nothing; the bundle logs at its time). Under the lock.
    var log: Logger { rehearsing ? quiet : logger }

    /// A copy of the whole rig state (O(1): copy on write).
    func snapshot() -> RigState { lock.withLock { _ in state } }

    /// Queues changes for the audio thread, with the rest of the packet's. Under the lock.
    func submit(_ changes: [Change]) {
        pending += changes
    }

    /// Hands the packet's changes to the mixer, as one batch. Under the lock.
    func flush() {
        guard !pending.isEmpty else { return }
        mixer.submit(pending)
        pending.removeAll(keepingCapacity: true)
    }

    /// Starts a message: nothing touched or changed yet. Under the lock.
    func beginMessage() {
        changed = false
        rewired = false
        touched.removeAll(keepingCapacity: true)
    }

    /// The audio changes `body` makes, worked out on the show as it stands,
    /// which is then put back as it was, whatever `body` changed in it
    /// (undo, fades, what was touched): for a timed bundle's messages ahead
    /// of their time. Under the lock.
    func rehearse(_ body: () -> Void) -> [Change] {
        let saved = show
        pending.removeAll(keepingCapacity: true)
        rehearsing = true
        body()
        let changes = pending
        rehearsing = false
        show = saved
        return changes
    }
}
