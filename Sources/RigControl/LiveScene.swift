import Catalogue
import Logging
import MixCore
import OSC
import Presets
import SceneModel
import Synchronization

/// The scene as it plays, and its changes: the authoritative rig state
/// (scene, safes, current preset, modified mark), the state before the last
/// recall (for undo), the packet's changes not yet handed to the mixer,
/// what the current message touched (for feedback), and the fades under way
/// (`FadeBook`). One part of the controller, owning its state and its lock.
///
/// The controller holds `lock` around each message of a packet (a bundle:
/// around all of them), so that readers on other threads (the state keeper,
/// OSCQuery's answers, the preset writer's completions, the feedback
/// thread's fades) never see half a message. Everything below marked
/// "under the lock" is read and written only while it is held.
final class LiveScene: @unchecked Sendable {
    let mixer: Mixer
    let catalogue: Catalogue
    /// Where each ramp is in the mixer's kernel, for the scene's size
    /// (`resize`). Under the lock.
    var ramps: RampLayout
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

    // Under the lock.
    var state: RigState
    /// The state just before the last recall or undo, for `/preset/undo`.
    var undoState: RigState?
    /// The changes of the packet being handled: they go to the mixer as one
    /// batch when it has been handled (`flush`).
    var pending: [Change] = []
    /// Every parameter changed by the current message, for feedback.
    var touched: [Target] = []
    /// Set by every edit that changes the scene; cleared per message.
    var changed = false
    /// Set by an edit of the rig's wiring (a patch): the state file keeps
    /// it, but the scene is not "modified" since its preset; cleared per message.
    var rewired = false
    /// True while a timed bundle's audio changes are worked out ahead of its time.
    var rehearsing = false
    /// Parameters fading now, shown to subscribers as they move (LiveScene+Fades.swift).
    var fades = FadeBook()

    init(state: RigState, mixer: Mixer, catalogue: Catalogue, smoothing: Float, directOuts: DirectTap = .off,
         logger: Logger, stateChanged: @escaping @Sendable () -> Void) {
        self.directOuts = directOuts
        self.state = state
        self.mixer = mixer
        self.catalogue = catalogue
        ramps = mixer.rampLayout
        self.smoothing = smoothing
        space = Mutex(AddressSpace(inputs: state.scene.inputCount, outputs: state.scene.outputCount,
                                   dcas: state.scene.dcas.count, muteGroups: state.scene.muteGroups.count,
                                   catalogue: catalogue))
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

    /// The audio changes `body` makes, worked out on the state as it
    /// stands, which is then put back as it was, with everything else
    /// `body` changed here (undo, fades, what was touched): for a timed
    /// bundle's messages ahead of their time. Under the lock.
    func rehearse(_ body: () -> Void) -> [Change] {
        let saved = (state, undoState, changed, touched, pending, fades)
        pending.removeAll(keepingCapacity: true)
        rehearsing = true
        body()
        let changes = pending
        rehearsing = false
        (state, undoState, changed, touched, pending, fades) = saved
        return changes
    }
}
