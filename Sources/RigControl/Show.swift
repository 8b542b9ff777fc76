import MixCore
import Presets

/// Everything a message may change, as one value: the rig state (scene,
/// safes, current preset, modified mark), the state before the last recall
/// (for undo), the fades under way, where each ramp is in the mixer's
/// kernel, and what the message under way has touched (for feedback),
/// changed and staged for the mixer. `LiveScene` keeps it under its lock
/// and a rehearsal works on a copy of it, so that a field added here can
/// never leak from a rehearsal into the show.
struct Show {
    var state: RigState
    /// The state just before the last recall or undo, for `/preset/undo`.
    var undoState: RigState?
    /// Where each ramp is in the mixer's kernel, for the scene's size (`resize`).
    var ramps: RampLayout
    /// Parameters fading now, shown to subscribers as they move (LiveScene+Fades.swift).
    var fades = FadeBook()
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
}
