import Catalogue
import MixCore
import SceneModel

/// DCAs and mute groups reach the sound through two ramps per member
/// source, its group gain and group gate (`Catalogue+Groups.swift`): a
/// change to a group or a membership moves those of the sources it
/// concerns, over the change's own time (a DCA's fade is its members'
/// fades, by the fader law). Under the lock.
extension LiveScene {
    /// What a source's group ramps hold.
    struct GroupState: Equatable {
        let gain: Float
        let muted: Bool
    }

    /// The sources whose group ramps a change at `place` may move: a
    /// membership's source, a group's members; none for anything else.
    func groupMembers(of place: Parameter.Place) -> [Int] {
        let sources = state.scene.sources
        switch place {
        case .dcaMember(let n, _), .muteGroupMember(let n, _): return [n]
        case .dca(let g): return sources.indices.filter { sources[$0].dcas.contains(g) }.map { $0 + 1 }
        case .muteGroup(let g): return sources.indices.filter { sources[$0].muteGroups.contains(g) }.map { $0 + 1 }
        case .source, .output, .master, .crosspoint, .numbered, .talkbackOutput, .listen: return []
        }
    }

    /// Source n's group ramps as the scene has them now.
    func groupState(_ n: Int) -> GroupState {
        GroupState(gain: state.scene.dcaGain(n), muted: state.scene.isMutedByGroup(n))
    }

    /// Moves the group ramps of `sources` that differ from `before` (their
    /// states before the change) over `seconds`.
    func regroup(_ sources: [Int], from before: [GroupState], seconds: Float, into changes: inout [Change]) {
        for (n, was) in zip(sources, before) {
            let now = groupState(n)
            guard now != was else { continue }
            let moves = catalogue.groupChanges(n, in: state.scene, layout: ramps, seconds: seconds, gateSeconds: seconds)
            if now.gain != was.gain, let gain = moves.first { changes.append(gain) }
            if now.muted != was.muted, let gate = moves.last { changes.append(gate) }
        }
    }
}
