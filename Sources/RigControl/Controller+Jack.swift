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
                _ = transaction(.rig) {
                    var changes: [Change] = []
                    for (index, on) in present.prefix(live.state.scene.inputCount).enumerated() {
                        live.set(number, at: .source(index + 1), to: .toggle(on), seconds: 0, into: &changes)
                    }
                    live.submit(changes)
                    return []
                }
                live.flush()
            }
        }
    }

    /// The other clients' output ports as the supervisor sees them now:
    /// subscribers are sent `/jack/ports` when the set changed.
    public func reportPorts(_ ports: [String]) {
        guard jack.update(ports), let feedback = subscriptions.feedback, feedback.count > 0 else { return }
        feedback.publish([jack.portsMessage()])
    }

    /// The other rigs DNS-SD finds, by name and page address: subscribers
    /// are sent `/rigs` when the list changed.
    public func reportOtherRigs(_ rigs: [(name: String, url: String)]) {
        guard otherRigs.update(rigs), let feedback = subscriptions.feedback, feedback.count > 0 else { return }
        feedback.publish([otherRigs.message()])
    }
}

extension Controller {
    /// Gives JACK clients free sources (`serve --auto-sources`): for each,
    /// the patch naming its ports, the link for a pair (which aligns it as
    /// any link does), and the client's name where the source still has its
    /// own ("in_3"). A change of the scene like any other: fed back, marked
    /// modified, kept in the state file.
    public func claimSources(_ claims: [(source: Int, pair: Bool, patch: String, name: String)]) {
        guard let patch = catalogue.number(.source, "patch"), let link = catalogue.number(.source, "link"),
              let name = catalogue.number(.source, "name") else { return }
        serial.withLock { _ in
            live.lock.withLock { _ in
                defer { live.flush() }
                _ = transaction(.rig) {
                    let scene = live.state.scene
                    var edits: [Edit] = []
                    for claim in claims {
                        let members = claim.pair ? [claim.source, claim.source + 1] : [claim.source]
                        // What the rig writes for itself passes the checks a client's message would:
                        // the state file never holds a value the rig would refuse on reading.
                        guard let last = members.last, claim.source >= 1, last <= scene.inputCount,
                              catalogue.parameters[patch].check(.text(claim.patch)) == nil else { continue }
                        if claim.pair { edits += (try? paired(.set(link, .source(claim.source), .toggle(true), fade: nil))) ?? [] }
                        edits.append(.set(patch, .source(claim.source), .text(claim.patch), fade: nil))
                        let named = catalogue.parameters[name].check(.text(claim.name)) == nil && !claim.name.isEmpty
                        for n in members where named && scene.sources[n - 1].name == "in_\(n)" {
                            edits.append(.set(name, .source(n), .text(claim.name), fade: nil))
                        }
                    }
                    commit(edits)
                    return []
                }
            }
        }
    }
}
