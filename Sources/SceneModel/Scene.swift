/// A whole routing scene: every source, crosspoint, output and master
/// setting. The control side keeps the live one; presets are stored ones.
public struct Scene: Equatable, Sendable {
    public var sources: [Source]
    public var crosspoints: CrosspointMatrix
    public var outputs: [Output]
    public var master = Master()
    /// The engineer's listen: its own settings (docs/talkback.md).
    public var listen = ListenBus()
    /// The rig's DCAs and mute groups (`serve --dcas`, `--mute-groups`);
    /// sources name the ones they belong to.
    public var dcas: [DCA]
    public var muteGroups: [MuteGroup]
    /// The strips of kinds the catalogue adds with no type here
    /// (`StripKind.Storage.bank`), by the kind's name.
    public var banks: [String: Bank] = [:]

    public var inputCount: Int { sources.count }
    public var outputCount: Int { outputs.count }

    /// The default scene: identity routing, unity everywhere, pans centred,
    /// nothing muted or soloed, every group at 0 dB, unmuted and empty.
    public init(inputs: Int, outputs: Int, dcas: Int = 0, muteGroups: Int = 0) {
        sources = (0..<inputs).map { Source(name: "in_\($0 + 1)") }
        crosspoints = .identity(inputs: inputs, outputs: outputs)
        self.outputs = (0..<outputs).map { Output(name: "out_\($0 + 1)") }
        self.dcas = (0..<dcas).map { DCA(name: "dca_\($0 + 1)") }
        self.muteGroups = (0..<muteGroups).map { MuteGroup(name: "mutegroup_\($0 + 1)") }
    }

    /// True while any source is soloed: then only soloed sources are heard.
    public var anySolo: Bool { sources.contains { $0.solo } }

    /// Whether source n (1-based) is silenced by another source's solo.
    public func isSilencedBySolo(_ n: Int) -> Bool {
        anySolo && !sources[n - 1].solo
    }

    /// Source n's (1-based) gain from its DCAs: the product of their levels
    /// (in dB, the sum), at most +12 dB, the top of a level in dB.
    public func dcaGain(_ n: Int) -> Float {
        var gain: Float = 1
        for g in sources[n - 1].dcas.members where g <= dcas.count { gain *= dcas[g - 1].volume }
        return min(gain, Self.dcaCeiling)
    }

    /// +12 dB, 10^(12/20): two DCAs at +12 dB give +12, not the +12.04 of
    /// linear 4 (the top of a level in linear gain).
    public static let dcaCeiling: Float = 3.981_071_7

    /// Whether source n is silenced by a group: a muted DCA or mute group
    /// it belongs to. Its own mute is apart.
    public func isMutedByGroup(_ n: Int) -> Bool {
        let source = sources[n - 1]
        return source.dcas.members.contains { $0 <= dcas.count && dcas[$0 - 1].mute }
            || source.muteGroups.members.contains { $0 <= muteGroups.count && muteGroups[$0 - 1].mute }
    }
}
