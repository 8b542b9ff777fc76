#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MixCore
import SceneModel

/// The engineer's listen (docs/talkback.md): a stereo pair of its own that
/// carries the sources selected before their level (PFL), the outputs
/// selected as their performers hear them (AFL), the talkbacks sent to it,
/// or with nothing selected a default output pair. Its settings are the
/// rig's; what is selected is kept nowhere. It moves no ramp of its own:
/// each source and output has a share of each side, and the master's listen
/// lanes hold the talkbacks' sends and its gain (`listenRamps`).
extension Catalogue {
    /// `/listen/…`: one, in the state file's `"listen"`.
    static let listenKinds: [StripKind] = [
        StripKind(.listen, .single, head: "listen", plural: "listens", countField: nil, field: "listen",
                  place: { _, _ in .listen }, count: { _ in 1 }),
    ]

    /// The modes of selection.
    public static let listenModes = ["exclusive", "additive"]

    static var listenEntries: [Parameter] {
        let blank = ListenBus()
        return [
            Parameter(.source, "listen", .toggle, "in the engineer's listen, before its level (PFL)", default: .toggle(false),
                      kernel: .listen, storage: .transient, display: .init(.toggle(label: "PFL"), "Listen to {strip}", view: .head),
                      get: { .toggle($0.sources[$1.channel - 1].listen) },
                      set: { $0.sources[$1.channel - 1].listen = $2.isOn }),
            Parameter(.output, "listen", .toggle, "in the engineer's listen, as its performer hears it (AFL)",
                      default: .toggle(false), kernel: .listen, storage: .transient,
                      display: .init(.toggle(label: "AFL"), "Listen to {strip}", view: .head),
                      get: { .toggle($0.outputs[$1.channel - 1].listen) },
                      set: { $0.outputs[$1.channel - 1].listen = $2.isOn }),
            .bank(.talkback, "listen", .toggle, "its talk into the engineer's listen too", default: .toggle(false),
                  kernel: .listen, storage: .rig, display: .init(.toggle(label: "Listen"), "{Strip} into the listen")),
            Parameter(.listen, "mode", .text(maxLength: 16),
                      "exclusive (selecting one clears the others) or additive (the selections sum)",
                      default: .text(blank.mode), kernel: .none, storage: .rig,
                      display: .init(.choice(options: listenModes), "Listen mode"),
                      check: { listenModes.contains($0.text) ? nil : "a listen mode is exclusive or additive, not '\($0.text)'" },
                      get: { scene, _ in .text(scene.listen.mode) }, set: { scene, _, value in scene.listen.mode = value.text }),
            Parameter(.listen, "default", .number(0...Float(Mixer.channelLimit), unit: "none"),
                      "with nothing selected: the stereo output pair whose first output this is, 0 for silence",
                      default: .number(0), kernel: .listen, storage: .rig,
                      display: .init(.number(step: 1, suffix: ""), "Listen with nothing selected"),
                      check: { $0.number.rounded() == $0.number ? nil : "an output number, not \($0.number)" },
                      get: { scene, _ in .number(Float(scene.listen.defaultPair)) },
                      set: { scene, _, value in scene.listen.defaultPair = Int(value.number) }),
            Parameter(.listen, "volume", .level, "level", default: .number(blank.volume), kernel: .listen, storage: .rig,
                      display: .init(.fader, "Listen level"),
                      get: { scene, _ in .number(scene.listen.volume) }, set: { scene, _, value in scene.listen.volume = value.number }),
            Parameter(.listen, "dim_db", .number(-60...0, unit: "gain.db"), "how far it is dimmed while any talkback talks, in dB",
                      default: .number(blank.dimDB), kernel: .listen, storage: .rig,
                      display: .init(.number(step: 1, suffix: "dB"), "Listen dim in dB"),
                      get: { scene, _ in .number(scene.listen.dimDB) }, set: { scene, _, value in scene.listen.dimDB = value.number }),
            // What is listened to, as the rig reports it: "3,5" ("" none).
            Parameter(.listen, "source", .text(maxLength: 4096), "the sources listened to, by number (\"3,5\")",
                      default: .text(""), kernel: .none, storage: .live,
                      display: .init(.text(placeholder: ""), "Sources listened to"),
                      get: { scene, _ in .text(Self.numbers(scene.sources.map(\.listen))) }, set: { _, _, _ in }),
            Parameter(.listen, "output", .text(maxLength: 4096), "the outputs listened to, by number (\"3\")",
                      default: .text(""), kernel: .none, storage: .live,
                      display: .init(.text(placeholder: ""), "Outputs listened to"),
                      get: { scene, _ in .text(Self.numbers(scene.outputs.map(\.listen))) }, set: { _, _, _ in }),
        ]
    }

    /// "3,5" for the places that are on.
    static func numbers(_ on: [Bool]) -> String {
        on.indices.filter { on[$0] }.map { "\($0 + 1)" }.joined(separator: ",")
    }

    /// Each side's share of each source and output, the talkbacks' sends
    /// and the listen's gain that `scene` gives, by slot (empty without a
    /// listen). A source: ±1 by its polarity, on its side if it is a linked
    /// pair's member (either member selected brings the pair), else on
    /// both. An output: 1 on its side of a stereo pair (`sides`; either
    /// selected brings the pair), on both if mono. With nothing selected,
    /// the default pair. A talkback sent to the listen: its level while it talks. The
    /// gain: the listen's level, dimmed while any talkback talks.
    public func listenRamps(_ scene: Scene, in layout: RampLayout, sides: [OutputLayout.Side]) -> [(slot: Int, value: Float)] {
        guard listenMixBlock >= 0 else { return [] }
        var ramps: [(slot: Int, value: Float)] = []
        let selected = scene.sources.contains(where: \.listen) || scene.outputs.contains(where: \.listen)
        // A linked pair's member, or a stereo pair's output, brings its
        // partner: the pair is heard in stereo.
        func chosen(_ listens: [Bool], _ n: Int, paired: Bool) -> Bool {
            listens[n] || paired && (n % 2 == 0 ? n + 1 < listens.count && listens[n + 1] : listens[n - 1])
        }
        let sourceListens = scene.sources.map(\.listen), outputListens = scene.outputs.map(\.listen)
        for (n, source) in scene.sources.enumerated() {
            let sign: Float = source.invert ? -1 : 1
            let heard = chosen(sourceListens, n, paired: source.link)
            let (left, right): (Float, Float) = !heard ? (0, 0) : !source.link ? (sign, sign) : n % 2 == 0 ? (sign, 0) : (0, sign)
            ramps += [(layout.slot(block: listenSourceBlock, channel: n + 1), left),
                      (layout.slot(block: listenSourceBlock + 1, channel: n + 1), right)]
        }
        let pair = scene.listen.defaultPair
        for m in scene.outputs.indices {
            let side = m < sides.count ? sides[m] : .mono
            let heard = selected ? chosen(outputListens, m, paired: side != .mono)
                : pair > 0 && (m + 1 == pair || m == pair) && pair < scene.outputCount
            let (left, right): (Float, Float) = !heard ? (0, 0) : !selected ? (m + 1 == pair ? (1, 0) : (0, 1))
                : side == .left ? (1, 0) : side == .right ? (0, 1) : (1, 1)
            ramps += [(layout.slot(block: listenOutputBlock, channel: m + 1), left),
                      (layout.slot(block: listenOutputBlock + 1, channel: m + 1), right)]
        }
        let bank = scene.banks[Parameter.Strip.talkback.name] ?? Bank(count: 0, blank: [:])
        var talking = false
        for t in stride(from: 1, through: Talkbacks.most, by: 1) {
            let talks = t <= bank.count && bank.value(t, "talk")?.isOn == true
            talking = talking || talks
            let sent = talks && bank.value(t, "listen")?.isOn == true
            ramps.append((layout.slot(block: listenMixBlock, channel: t), sent ? bank.value(t, "volume")?.number ?? 1 : 0))
        }
        let dim = talking ? powf(10, min(0, max(-60, scene.listen.dimDB)) / 20) : 1
        ramps.append((layout.slot(block: listenMixBlock, channel: Listen.levelLane + 1), scene.listen.volume * dim))
        return ramps
    }

    /// The changes that take the listen's ramps to what `after` says from
    /// what `before` said (every one when `before` is nil), over `seconds`;
    /// its gain over `levelSeconds` (a level's fade), if given.
    public func listenChanges(from before: Scene?, to after: Scene, in layout: RampLayout, sides: [OutputLayout.Side],
                              seconds: Float, levelSeconds: Float? = nil) -> [Change] {
        let was = before.map { Dictionary(listenRamps($0, in: layout, sides: sides), uniquingKeysWith: { $1 }) } ?? [:]
        let level = listenMixBlock >= 0 ? layout.slot(block: listenMixBlock, channel: Listen.levelLane + 1) : -1
        return listenRamps(after, in: layout, sides: sides).compactMap { slot, value in
            was[slot] == value ? nil
                : Change(ramp: Int32(slot), position: value, value: value, seconds: slot == level ? levelSeconds ?? seconds : seconds)
        }
    }
}
