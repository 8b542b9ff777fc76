import Catalogue
import OSC

/// Moving fades: while a parameter fades (a fade argument, a recall's
/// crossfade, an undo), subscribers are sent its value as it moves, at up
/// to 30 updates a second and along the curve the audio follows, ending
/// exactly on the target. A change quicker than `fadeFeedbackThreshold`
/// (the smoothing of a plain change) is fed back at once, as its target.
///
/// The values are worked out under the controller's lock (so a later change
/// can never be overtaken by an older moving value), a bounded number per
/// update: a few faders move at 30 updates a second; the 4,096 crosspoints
/// of a 64x64 crossfade take turns, each shown about twice a second. Fades
/// that have ended are sent their targets at once, however many.
extension Controller {
    /// Fades shorter than this are shown as their target at once.
    static let fadeFeedbackThreshold: Float = 0.1
    /// Fading parameters whose values one update works out.
    static let fadeUpdatesPerTurn = 256

    /// Whether a parameter's value moves on the way to a new one (levels,
    /// pans): not toggles and names, which change at once, nor a delay,
    /// which crossfades between two taps rather than moving.
    func moves(_ number: Int) -> Bool {
        let parameter = catalogue.parameters[number]
        switch parameter.kind {
        case .level, .number: break
        case .toggle, .text: return false
        }
        switch parameter.kernel {
        case .crosspoint: return true
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
            fades.removeValue(forKey: key)
            fadeTurnKeys.remove(key)
            return false
        }
        let now = ContinuousClock.now
        // A fade that meets a running one starts where that one has got to, as the ramp does.
        if let running = fades[key] { from = running.value(at: now) }
        if fadeTurnKeys.insert(key).inserted { fadeTurns.append(key) }
        let isLevel = if case .level = catalogue.parameters[number].kind { true } else { false }
        let fade = Fade(from: from, to: to, byFaderLaw: isLevel, start: now, seconds: Double(seconds))
        fades[key] = fade
        nextFadeEnd = min(nextFadeEnd ?? fade.end, fade.end)
        return true
    }

    /// Sends every subscriber the targets of the fades that have ended, and
    /// the values of the next fading parameters in turn, in every form.
    /// Called by the feedback thread every 33 ms.
    public func publishFades(at now: ContinuousClock.Instant = .now) {
        lock.withLock { _ in
            guard !fades.isEmpty else {
                (fadeTurns, fadeTurnKeys, fadeCursor, nextFadeEnd) = ([], [], 0, nil)
                return
            }
            let listening = (feedback?.count ?? 0) > 0 || hasListeners()
            var messages: [OSCMessage] = []
            func show(_ key: Target, _ value: Float) {
                guard listening else { return }
                for target in addressSpace.allForms(key) {
                    guard case .parameter(_, _, let form) = target else { continue }
                    messages.append(OSCMessage(addressSpace.address(target), arguments(of: .number(value), in: form)))
                }
            }
            // Ended: their targets, all of them now (a recall's crossfade ends all at once).
            if let end = nextFadeEnd, now >= end {
                var ended: [Target] = []
                nextFadeEnd = nil
                for (key, fade) in fades {
                    if fade.end <= now { ended.append(key) } else { nextFadeEnd = min(nextFadeEnd ?? fade.end, fade.end) }
                }
                var routed = false
                for key in ended {
                    guard let fade = fades.removeValue(forKey: key) else { continue }
                    fadeTurnKeys.remove(key)
                    show(key, fade.to)
                    if case .parameter(crosspointLevel, _, _) = key { routed = true }
                }
                // Routing has settled: the channel map as it now stands.
                if routed, listening, let map = currentValue(.command(.matrixMap)) { messages.append(OSCMessage("/matrix/map", map)) }
            }
            // Moving: a bounded number a turn, from where the last turn stopped.
            var (shown, visited) = (0, 0)
            while visited < fadeTurns.count && shown < Self.fadeUpdatesPerTurn {
                if fadeCursor >= fadeTurns.count { fadeCursor = 0 }
                let key = fadeTurns[fadeCursor]
                fadeCursor += 1
                visited += 1
                // A fade that has ended, or that a quicker change ended, is gone.
                guard let fade = fades[key] else { continue }
                shown += 1
                show(key, fade.value(at: now))
            }
            // Gone entries are left in the list until they outnumber the fades.
            if fadeTurns.count > 2 * fades.count + 256 {
                var seen: Set<Target> = []
                fadeTurns = fadeTurns.filter { fades[$0] != nil && seen.insert($0).inserted }
                (fadeTurnKeys, fadeCursor) = (seen, 0)
            }
            guard listening, !messages.isEmpty else { return }
            feedback?.publish(messages)
            onChange?(messages)
        }
    }

    /// Where a parameter is now: on its way while it fades, else its value.
    func movingValue(_ target: Target) -> [OSCArgument]? {
        guard case .parameter(let number, let place, let form) = target,
              let fade = fades[.parameter(number, place, .plain)] else { return currentValue(target) }
        return arguments(of: .number(fade.value(at: .now)), in: form)
    }
}
