import Catalogue
import MixCore
import SceneModel

/// Linked pairs of sources (docs/sources.md): sources pair as 1-2, 3-4, …;
/// while a pair is linked, what either member is sent of a parameter the
/// catalogue marks `sharedByPair` (level, pan as the balance, mute, solo,
/// polarity, the link) and its recall safe are both's, in the same batch,
/// and a crosspoint set on one member is mirrored on the other. Recalls,
/// `/matrix/map` and `/matrix/clear` set what they are given, unmirrored:
/// they do not come through here. Under the scene's lock.
extension Controller {
    /// The other member of source n's pair, if the rig has it.
    func partner(of n: Int) -> Int? {
        let other = n % 2 == 1 ? n + 1 : n - 1
        return other >= 1 && other <= live.state.scene.inputCount ? other : nil
    }

    /// Whether source n is a linked pair's member: both members linked (a
    /// recall with one member safe may leave the other alone linked).
    func isLinked(_ n: Int) -> Bool {
        let sources = live.state.scene.sources
        guard n >= 1, n <= sources.count, let other = partner(of: n) else { return false }
        return sources[n - 1].link && sources[other - 1].link
    }

    /// Output m's counterpart for the partner of a linked source: the other
    /// output of a stereo output pair, or m itself for a mono output.
    func mirrored(_ m: Int) -> Int {
        switch mixer.layout.sides[m - 1] {
        case .mono: m
        case .left: m + 1
        case .right: m - 1
        }
    }

    /// Where a change to parameter `number` at `place` goes: there, and for
    /// a linked pair's member the partner's place too (the same parameter
    /// if the pair shares it; a crosspoint's mirror).
    func pairedPlaces(_ number: Int, _ place: Parameter.Place) -> [Parameter.Place] {
        switch place {
        case .source(let n):
            guard catalogue.parameters[number].sharedByPair, isLinked(n), let other = partner(of: n) else { return [place] }
            return [place, .source(other)]
        case .crosspoint(let i, let o):
            guard isLinked(i), let other = partner(of: i) else { return [place] }
            return [place, .crosspoint(input: other, output: mirrored(o))]
        case .dcaMember(let n, let g):
            guard isLinked(n), let other = partner(of: n) else { return [place] }
            return [place, .dcaMember(source: other, dca: g)]
        case .muteGroupMember(let n, let g):
            guard isLinked(n), let other = partner(of: n) else { return [place] }
            return [place, .muteGroupMember(source: other, group: g)]
        case .output, .master, .dca, .muteGroup, .numbered, .talkbackOutput, .listen:
            return [place]
        }
    }

    /// The edits one edit makes for a linked pair (just it, elsewhere).
    func paired(_ edit: Edit) throws(ArgumentReader.Failure) -> [Edit] {
        switch edit {
        case .set(let number, let place, let value, let fade):
            if case .source(let n) = place, catalogue.parameters[number].name == "link",
               catalogue.parameters[number].strip == .source {
                return try link(n, value.isOn, number: number, fade: fade)
            }
            return pairedPlaces(number, place).map { .set(number, $0, value, fade: fade) }
        case .safe(let safe, let on) where safe.kind == .source:
            let n = safe.channel
            guard isLinked(n), let other = partner(of: n) else { return [edit] }
            return [edit, .safe(.source(other), on)]
        default:
            return [edit]
        }
    }

    /// Linking or unlinking source n's pair, from either member. Linking
    /// makes the pair one source as a console's link does: the right member
    /// takes the left's shared values (level, mute, solo, polarity, safe)
    /// and the balance starts at the centre. Unlinking leaves each member
    /// as it is, its pan the balance it had.
    private func link(_ n: Int, _ on: Bool, number: Int, fade: Float?) throws(ArgumentReader.Failure) -> [Edit] {
        guard let other = partner(of: n) else {
            // A lone source left linked (a preset fitted to fewer inputs) may still be unlinked.
            guard !on else {
                throw ArgumentReader.Failure(reason: "source \(n) has no pair to link with (sources pair as 1-2, 3-4, …)")
            }
            return [.set(number, .source(n), .toggle(false), fade: fade)]
        }
        let (left, right) = (min(n, other), max(n, other))
        // The member sent to first: the message's own edit, then its partner's.
        var edits: [Edit] = [.set(number, .source(n), .toggle(on), fade: fade),
                             .set(number, .source(other), .toggle(on), fade: fade)]
        guard on, !isLinked(n) else { return edits }
        let scene = live.state.scene
        for (shared, parameter) in catalogue.parameters.enumerated()
        where parameter.strip == .source && parameter.sharedByPair && shared != number {
            if parameter.name == "pan" {
                edits += [.set(shared, .source(left), .number(0), fade: fade), .set(shared, .source(right), .number(0), fade: fade)]
            } else {
                edits.append(.set(shared, .source(right), parameter.get(scene, .source(left)), fade: fade))
            }
        }
        // The pair's groups are the left member's, as one source's.
        for membership in catalogue.sourceMemberships {
            let (number, kind) = (membership.parameter, membership.kind)
            for g in stride(from: 1, through: membership.group.count(scene), by: 1) {
                edits.append(.set(number, kind.place(right, g), catalogue.parameters[number].get(scene, kind.place(left, g)),
                                  fade: fade))
            }
        }
        edits.append(.safe(.source(right), live.state.safes.contains(.source, left)))
        return edits
    }
}
