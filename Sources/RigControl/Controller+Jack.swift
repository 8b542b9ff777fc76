import Catalogue
import MixCore
import OSC
import SceneModel

/// What the JACK supervisor reports (it calls these from its own thread,
/// every 100 ms at most, only when something changed) and what it asks:
/// which sources something feeds, the other clients' ports, the patches.
extension Controller {
    /// Which sources a port is connected to now (index n − 1): each
    /// source's `present`, fed back to subscribers as any change is. It is
    /// the rig's report, not the scene's: no "modified" mark, not in the
    /// state file or presets.
    public func reportPresence(_ present: [Bool]) {
        guard let number = catalogue.number(.source, "present") else { return }
        serial.withLock { _ in
            live.lock.withLock { _ in
                live.beginMessage()
                var changes: [Change] = []
                for (index, on) in present.prefix(live.state.scene.inputCount).enumerated() {
                    live.set(number, at: .source(index + 1), to: .toggle(on), seconds: 0, into: &changes)
                }
                if !live.touched.isEmpty && subscriptions.isListening {
                    subscriptions.publish(live.feedbackMessages(for: live.touched, in: live.state))
                }
            }
        }
    }

    /// The other clients' output ports as the supervisor sees them now:
    /// subscribers are sent `/jack/ports` when the set changed.
    public func reportPorts(_ ports: [String]) {
        guard jack.update(ports), let feedback = subscriptions.feedback, feedback.count > 0 else { return }
        feedback.publish([jack.portsMessage()])
    }
}
