#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MixCore
import SceneModel

/// Talkbacks (docs/talkback.md): the engineer's mics into any set of
/// outputs. A talkback is a strip kept in the scene's banks, its settings
/// the rig's own (kept in the state file, never in presets), its talk kept
/// nowhere. It moves no ramp of its own: each output has a send from each
/// talkback (its level while it talks there, else 0), which the talkback
/// stage adds after the output's level and mute, and a dim (the product of
/// the dims of the talkbacks talking to it), an output gain the kernel
/// folds like the output's own level (`talkRamps`).
extension Catalogue {
    /// The talkbacks' kind: `/talkback/{t}/…`, `serve --talkbacks N`
    /// (0–8, 2 when not given); and their destinations',
    /// `/talkback/{t}/output/{m}`, a list `"output": [3, 5]` in a talkback's object.
    static let talkbackKinds: [StripKind] = [
        .bank("talkback", noun: "talkback", plural: "talkbacks", field: "talkbacks", counts: 0...Talkbacks.most,
              defaultCount: 2),
        StripKind(.talkbackOutput, .membership(owner: .talkback, group: .output, field: "output"), head: nil,
                  plural: "destinations of talkbacks", countField: nil, field: nil,
                  place: { t, m in .talkbackOutput(talkback: t, output: m) },
                  count: { ($0.banks[Parameter.Strip.talkback.name]?.count ?? 0) * $0.outputCount }),
    ]

    static var talkbackEntries: [Parameter] {
        let talkback = Parameter.Strip.talkback
        return [
            .bank(talkback, "name", .text(maxLength: 64), "name", default: .text("talk_{n}"), storage: .rig,
                  display: .init(.text(placeholder: "talkback {n}"), "{Strip} name")),
            .bank(talkback, "volume", .level, "level of the talk into its destinations", default: .number(1),
                  kernel: .talkbacks, storage: .rig, display: .init(.fader, "{Strip} level")),
            .bank(talkback, "dim_db", .number(-60...0, unit: "gain.db"),
                  "how far everything else on its destinations is dimmed while it talks, in dB (0: not at all)",
                  default: .number(-20), kernel: .talkbacks, storage: .rig,
                  display: .init(.number(step: 1, suffix: "dB"), "{Strip} dim in dB")),
            .bank(talkback, "latch", .toggle, "latch: a tap on talk talks until the next tap", default: .toggle(false),
                  storage: .rig, display: .init(.toggle(label: "Latch"), "Latch {strip}")),
            .bank(talkback, "talk", .toggle, "talk: 1 talks, 0 stops (latched: each 1 flips it, 0 does nothing)",
                  default: .toggle(false), kernel: .talkbacks, storage: .transient,
                  display: .init(.toggle(label: "Talk"), "Talk on {strip}")).latching(by: "latch"),
            // Destinations: /talkback/{t}/output/{m}, kept under the
            // talkback's strip in the bank as "output/{m}" while on.
            Parameter(.talkbackOutput, "", .toggle, "destination: 1 while the talkback talks to this output",
                      default: .toggle(false), kernel: .talkbacks, storage: .rig,
                      display: .init(.toggle(label: "{g}"), "{Strip} to output {g}"),
                      get: { scene, place in
                          .toggle(scene.banks[talkback.name]?.value(place.channel, "output/\(place.group)")?.isOn ?? false)
                      },
                      set: { scene, place, value in
                          if value.isOn {
                              scene.banks[talkback.name]?.set(place.channel, "output/\(place.group)", .toggle(true))
                          } else {
                              scene.banks[talkback.name]?.remove(place.channel, "output/\(place.group)")
                          }
                      }),
        ]
    }

    /// Whether talkback t talks to output m in `scene`.
    static func talks(_ scene: Scene, _ t: Int, to m: Int) -> Bool {
        scene.banks[Parameter.Strip.talkback.name]?.value(t, "output/\(m)")?.isOn ?? false
    }

    /// Every talk send and dim `scene`'s talkbacks give, by slot: per
    /// talkback t of the scene's and output m, its level while it talks and
    /// m is a destination, else 0; per output, the product of the dims (as
    /// gains) of the talkbacks talking to it, 1 with none. Empty for a
    /// catalogue without talkbacks.
    /// Each ramp's talkback (0 for a dim).
    public func talkRamps(_ scene: Scene, in layout: RampLayout) -> [(slot: Int, value: Float, talkback: Int)] {
        guard talkSendBlock >= 0 else { return [] }
        let bank = scene.banks[Parameter.Strip.talkback.name] ?? Bank(count: 0, blank: [:])
        let outputs = scene.outputCount
        var dims = [Float](repeating: 1, count: outputs)
        var ramps: [(slot: Int, value: Float, talkback: Int)] = []
        ramps.reserveCapacity((bank.count + 1) * outputs)
        for t in stride(from: 1, through: min(bank.count, Talkbacks.most), by: 1) {
            let talking = bank.value(t, "talk")?.isOn ?? false
            let level = bank.value(t, "volume")?.number ?? 1
            let dim = powf(10, min(0, max(-60, bank.value(t, "dim_db")?.number ?? 0)) / 20)
            for m in stride(from: 1, through: outputs, by: 1) {
                let heard = talking && Self.talks(scene, t, to: m)
                ramps.append((layout.slot(block: talkSendBlock + t - 1, channel: m), heard ? level : 0, t))
                if heard { dims[m - 1] *= dim }
            }
        }
        for m in stride(from: 1, through: outputs, by: 1) {
            ramps.append((layout.slot(block: talkDimBlock, channel: m), dims[m - 1], 0))
        }
        return ramps
    }

    /// The changes that take the talk sends and dims to what `after` says
    /// from what `before` said (every one when `before` is nil): a send by
    /// the fader law over its talkback's fade in `fades` (its level's), else
    /// over `seconds`; a dim linearly over `seconds`.
    public func talkChanges(from before: Scene?, to after: Scene, in layout: RampLayout, seconds: Float,
                            fades: [Int: Float] = [:]) -> [Change] {
        let was = before.map { Dictionary(talkRamps($0, in: layout).map { ($0.slot, $0.value) }, uniquingKeysWith: { $1 }) } ?? [:]
        return talkRamps(after, in: layout).compactMap { slot, value, talkback in
            guard was[slot] != value else { return nil }
            return talkback == 0 ? Change(ramp: Int32(slot), position: value, value: value, seconds: seconds)
                : Self.level(slot, value, seconds: fades[talkback] ?? seconds)
        }
    }
}
