import MixCore
import SceneModel

/// DCAs and mute groups (docs/groups.md): their parameters, and the two
/// ramps per source through which they reach the sound. A group's level or
/// mute, or a membership, moves no ramp of its own: each member source has
/// a group gain (the product of its DCAs' levels, by the fader law) and a
/// group gate (0 while any DCA or mute group it belongs to is muted), both
/// gain blocks the kernel folds like the source's own level and mute. So a
/// DCA at 0 dB unmuted multiplies by exactly 1, and a member's own fade and
/// its DCA's multiply.
extension Catalogue {
    static var groupEntries: [Parameter] {
        [
            // Memberships: /source/{n}/dca/{g}, /source/{n}/mutegroup/{g}.
            Parameter(.dcaMember, "", .toggle, "membership: 1 while a member, whose level and mute the DCA rides",
                      default: .toggle(false), kernel: .groups,
                      display: .init(.toggle(label: "{g}"), "{Strip} in DCA {g}"),
                      get: { scene, place in .toggle(scene.sources[place.channel - 1].dcas.contains(place.group)) },
                      set: { scene, place, value in scene.sources[place.channel - 1].dcas.set(place.group, value.isOn) }),
            Parameter(.muteGroupMember, "", .toggle, "membership: 1 while a member, which the group's mute silences",
                      default: .toggle(false), kernel: .groups,
                      display: .init(.toggle(label: "{g}"), "{Strip} in mute group {g}"),
                      get: { scene, place in .toggle(scene.sources[place.channel - 1].muteGroups.contains(place.group)) },
                      set: { scene, place, value in scene.sources[place.channel - 1].muteGroups.set(place.group, value.isOn) }),

            // DCAs: /dca/{g}/….
            Parameter(.dca, "name", .text(maxLength: 64), "name", default: .text("dca_{g}"), kernel: .none,
                      display: .init(.text(placeholder: "DCA {n}"), "{Strip} name"),
                      get: { .text($0.dcas[$1.group - 1].name) },
                      set: { $0.dcas[$1.group - 1].name = $2.text }),
            Parameter(.dca, "volume", .level, "level: multiplies into every member's own (in dB, adds)",
                      default: .number(1), kernel: .groups,
                      display: .init(.fader, "{Strip} level"),
                      get: { .number($0.dcas[$1.group - 1].volume) },
                      set: { $0.dcas[$1.group - 1].volume = $2.number }),
            Parameter(.dca, "mute", .toggle, "mute: silences every member, leaving their own mutes as they are",
                      default: .toggle(false), kernel: .groups,
                      display: .init(.toggle(label: "M"), "Mute {strip}"),
                      get: { .toggle($0.dcas[$1.group - 1].mute) },
                      set: { $0.dcas[$1.group - 1].mute = $2.isOn }),

            // Mute groups: /mutegroup/{g}/….
            Parameter(.muteGroup, "name", .text(maxLength: 64), "name", default: .text("mutegroup_{g}"), kernel: .none,
                      display: .init(.text(placeholder: "Mute group {n}"), "{Strip} name"),
                      get: { .text($0.muteGroups[$1.group - 1].name) },
                      set: { $0.muteGroups[$1.group - 1].name = $2.text }),
            Parameter(.muteGroup, "mute", .toggle, "mute: silences every member, leaving their own mutes as they are",
                      default: .toggle(false), kernel: .groups,
                      display: .init(.toggle(label: "M"), "Mute {strip}"),
                      get: { .toggle($0.muteGroups[$1.group - 1].mute) },
                      set: { $0.muteGroups[$1.group - 1].mute = $2.isOn }),
        ]
    }

    /// Whether the rig's catalogue has groups at all.
    public var hasGroups: Bool { groupGainBlock >= 0 }

    /// The changes that take source n's group gain and gate to what `scene`
    /// says: the gain over `seconds` by the fader law (a DCA's fade), the
    /// gate over `gateSeconds` (a mute's smoothing).
    public func groupChanges(_ n: Int, in scene: Scene, layout: RampLayout, seconds: Float,
                             gateSeconds: Float) -> [Change] {
        guard hasGroups else { return [] }
        let gate: Float = scene.isMutedByGroup(n) ? 0 : 1
        return [Self.level(layout.slot(block: groupGainBlock, channel: n), scene.dcaGain(n), seconds: seconds),
                Change(ramp: Int32(layout.slot(block: groupGateBlock, channel: n)), position: gate, value: gate,
                       seconds: gateSeconds)]
    }

    /// What the group ramps of each source hold for `scene`: its DCA gain
    /// and whether a group mutes it.
    public static func groupRamps(of scene: Scene) -> [GroupRamps] {
        stride(from: 1, through: scene.inputCount, by: 1).map {
            GroupRamps(gain: scene.dcaGain($0), muted: scene.isMutedByGroup($0))
        }
    }

    /// One source's group gain and gate, as `groupRamps` works them out.
    public struct GroupRamps: Equatable, Sendable {
        public let gain: Float
        public let muted: Bool
    }
}

extension Catalogue {
    /// An owner's memberships of one kind of group (a source's of DCAs, a
    /// talkback's of outputs), as every part of the rig sees them: the
    /// membership kind, the owner's and the group's kinds, the field of the
    /// owner's object in files that lists its groups (`"dca": [1, 3]`) and
    /// the membership's parameter (the first of its strip).
    public struct Membership: Sendable {
        public let kind: StripKind
        public let owner: StripKind
        public let group: StripKind
        public let field: String
        public let parameter: Int
    }

    /// The rig's memberships, from its kinds.
    public var memberships: [Membership] {
        kinds.compactMap { kind in
            guard case .membership(let owner, let group, let field) = kind.shape, let ownerKind = self.kind(owner),
                  let groupKind = self.kind(group), let parameter = numbers(of: kind.strip).first else { return nil }
            return Membership(kind: kind, owner: ownerKind, group: groupKind, field: field, parameter: parameter)
        }
    }

    /// `scene` with no owner a member of `group`'s strips `count + 1` …
    /// `before` (gone with a rig that shrank): one that comes back is no
    /// one's until set again (a talkback's destinations, kept in its bank).
    public func droppingMemberships(of group: Parameter.Strip, beyond count: Int, upTo before: Int,
                                    in scene: Scene) -> Scene {
        guard before > count else { return scene }
        var scene = scene
        for membership in memberships where membership.group.strip == group {
            let parameter = parameters[membership.parameter]
            for owner in places(membership.owner.strip, of: scene) {
                for g in (count + 1)...before {
                    parameter.set(&scene, membership.kind.place(owner.channel, g), .toggle(false))
                }
            }
        }
        return scene
    }

    /// The memberships a source has (of DCAs, of mute groups).
    public var sourceMemberships: [Membership] { memberships.filter { $0.owner.strip == .source } }

    /// The memberships `owner`'s strips have that a document of this kind holds.
    public func memberships(of owner: Parameter.Strip, in document: Parameter.Document) -> [Membership] {
        memberships.filter { $0.owner.strip == owner && parameters[$0.parameter].storage.isKept(in: document) }
    }
}
