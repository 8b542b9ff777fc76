import Delivery
import Catalogue
import OSC

/// Moving fades: while a parameter fades (a fade argument, a recall's
/// crossfade, an undo), subscribers are sent its value as it moves, at up
/// to 30 updates a second and along the curve the audio follows, ending
/// exactly on the target. A change quicker than `fadeFeedbackThreshold`
/// (the smoothing of a plain change) is fed back at once, as its target.
///
/// The values are worked out under the scene's lock (so a later change
/// can never be overtaken by an older moving value), a bounded number per
/// update: a few faders move at 30 updates a second; the 4,096 crosspoints
/// of a 64x64 crossfade take turns, each shown about twice a second. Fades
/// that have ended are sent their targets at once, however many.
extension LiveScene {
    /// Fades shorter than this are shown as their target at once.
    static let fadeFeedbackThreshold: Float = 0.1
    /// Fading parameters whose values one update works out.
    static let fadeUpdatesPerTurn = 256

    /// Whether a parameter's value moves on the way to a new one (levels,
    /// pans): not toggles and names, which change at once, nor a delay,
    /// which crossfades between two taps rather than moving.
    func moves(_ number: Int) -> Bool {
        let parameter = catalogue.parameters[number]
        guard parameter.kind.isContinuous else { return false }
        switch parameter.kernel {
        case .crosspoint, .groups, .talkbacks: return true
        case .listen: return parameter.isLevel
        case .ramp(let block, _): return block.role != .delay
        case .none, .soloGate: return false
        }
    }

    /// Notes that parameter `number` at `place` heads from `old` to `new`
    /// over `seconds`; returns whether it fades (its feedback then comes as
    /// it moves, not now). A quicker change ends any fade of the parameter.
    func follow(_ number: Int, at place: Parameter.Place, from old: Parameter.Value, to new: Parameter.Value,
                seconds: Float) -> Bool {
        let key = Target.parameter(number, place, .plain)
        guard !rehearsing else { return false }
        guard seconds >= Self.fadeFeedbackThreshold, moves(number),
              case .number(var from) = old, case .number(let to) = new else {
            fades.end(key)
            return false
        }
        let now = ContinuousClock.now
        // A fade that meets a running one starts where that one has got to, as the ramp does.
        if let running = fades[key] { from = running.value(at: now) }
        fades.start(key, Fade(from: from, to: to, byFaderLaw: catalogue.parameters[number].isLevel, start: now,
                              seconds: Double(seconds)))
        return true
    }

    /// Sends subscribers the targets of the fades that have ended, and the
    /// values of the next fading parameters in turn, in every form: every
    /// 33 ms, from the feedback thread (`Controller.publishFades`). Sent
    /// under the lock, so that no later change overtakes them.
    func publishFades(at now: ContinuousClock.Instant, to subscriptions: Subscriptions) {
        lock.withLock { _ in
            guard !fades.isEmpty else {
                fades.clear()
                return
            }
            let listening = subscriptions.isListening
            var messages = Feedback()
            func show(_ key: Target, _ value: Float) {
                guard listening else { return }
                for target in addressSpace.allForms(key) {
                    guard case .parameter(_, _, let form) = target else { continue }
                    messages.append(OSCMessage(addressSpace.address(target), Self.arguments(of: .number(value), in: form)), form: form)
                }
            }
            // Ended: their targets, all of them now (a recall's crossfade ends all at once).
            var routed = false
            for (key, fade) in fades.takeEnded(at: now) {
                show(key, fade.to)
                if case .parameter(crosspointLevel, _, _) = key { routed = true }
            }
            // Routing has settled: the channel map as it now stands.
            if routed, listening, let map = value(.command(.matrixMap), in: state) {
                messages.append(OSCMessage(Command.Name.matrixMap.address, map), form: .plain)
            }
            // Moving: a bounded number a turn, from where the last turn stopped.
            for (key, fade) in fades.nextInTurn(Self.fadeUpdatesPerTurn) { show(key, fade.value(at: now)) }
            if listening && !messages.isEmpty { subscriptions.publish(messages) }
        }
    }

    /// Where a parameter is now: on its way while it fades, else its value. Under the lock.
    func movingValue(_ target: Target) -> [OSCArgument]? {
        guard case .parameter(let number, let place, let form) = target,
              let fade = fades[.parameter(number, place, .plain)] else { return value(target, in: state) }
        return Self.arguments(of: .number(fade.value(at: .now)), in: form)
    }
}
