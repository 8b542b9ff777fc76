import MixCore
import SceneModel

/// A stored routing scene: every source, crosspoint, output and master
/// setting, for the channel counts it was made for.
public struct Preset: Equatable, Sendable {
    public var name: String
    public var notes: String?
    /// The recall fade in seconds when the recall names none.
    public var fade: Double?
    /// The whole scene, as many channels as the file says.
    public var scene: Scene

    public init(name: String, notes: String? = nil, fade: Double? = nil, scene: Scene) {
        self.name = name
        self.notes = notes
        self.fade = fade
        self.scene = scene
    }

    /// The same preset under another name.
    public func named(_ name: String) -> Preset {
        var preset = self
        preset.name = name
        return preset
    }

    /// The scene on a rig of another size: what fits is taken, the rest of
    /// the rig is at its default (nothing routed, unity, centred; a group at
    /// 0 dB, unmuted, with no members), and what does not fit is listed in
    /// `skipped`. `dcas`, `muteGroups`, `banks`: the rig's groups and the
    /// strips of its kinds kept in banks (nil: the scene's own).
    public func fitted(inputs: Int, outputs: Int, dcas: Int? = nil, muteGroups: Int? = nil,
                       banks: [String: Bank]? = nil) -> (scene: Scene, skipped: [String]) {
        let own = scene
        let (dcas, muteGroups) = (dcas ?? own.dcas.count, muteGroups ?? own.muteGroups.count)
        var fitted = Scene(inputs: inputs, outputs: outputs, dcas: dcas, muteGroups: muteGroups)
        fitted.crosspoints = CrosspointMatrix(inputs: inputs, outputs: outputs)
        var skipped: [String] = []
        for n in 0..<min(inputs, own.inputCount) {
            fitted.sources[n] = own.sources[n]
            fitted.sources[n].dcas = own.sources[n].dcas.prefix(dcas)
            fitted.sources[n].muteGroups = own.sources[n].muteGroups.prefix(muteGroups)
        }
        if own.inputCount > inputs { skipped.append("sources \(inputs + 1)-\(own.inputCount)") }
        for g in 0..<min(dcas, own.dcas.count) { fitted.dcas[g] = own.dcas[g] }
        if own.dcas.count > dcas { skipped.append("DCAs \(dcas + 1)-\(own.dcas.count)") }
        for g in 0..<min(muteGroups, own.muteGroups.count) { fitted.muteGroups[g] = own.muteGroups[g] }
        if own.muteGroups.count > muteGroups { skipped.append("mute groups \(muteGroups + 1)-\(own.muteGroups.count)") }
        for m in 0..<min(outputs, own.outputCount) { fitted.outputs[m] = own.outputs[m] }
        if own.outputCount > outputs { skipped.append("outputs \(outputs + 1)-\(own.outputCount)") }
        var dropped = 0
        for n in stride(from: 1, through: own.inputCount, by: 1) {
            for m in stride(from: 1, through: own.outputCount, by: 1) where own.crosspoints[n, m] != 0 {
                if n <= inputs && m <= outputs { fitted.crosspoints[n, m] = own.crosspoints[n, m] } else { dropped += 1 }
            }
        }
        if dropped > 0 { skipped.append("\(dropped) crosspoints beyond the rig") }
        fitted.master = own.master
        fitted.listen = own.listen
        // Kinds kept in banks: as many as `banks` has of each (the rig's), a
        // kind the preset lacks at its blank values.
        fitted.banks = own.banks
        for (name, rig) in banks ?? [:] {
            var bank = own.banks[name] ?? Bank(count: 0, blank: rig.blank)
            if bank.count > rig.count { skipped.append("\(name) \(rig.count + 1)-\(bank.count)") }
            bank.resize(to: rig.count)
            fitted.banks[name] = bank
        }
        return (fitted, skipped)
    }
}
