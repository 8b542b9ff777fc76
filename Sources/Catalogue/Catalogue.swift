import MixCore
import PortPatterns
import SceneModel
import SystemSupport

/// Every kind of parameter the rig has, in one list: the one place a new
/// parameter is added. The order is the order of a strip's fields in files
/// and of the full picture a subscriber is sent; the kernel's blocks follow
/// it too (`Catalogue+Ramps.swift`).
///
/// Adding a parameter: give the scene part a field (`Source`, `Output`,
/// `Master`), add an entry here (its kind, range and unit; its kernel role;
/// who may change it; how a page shows it), and, only if it does signal
/// processing no `RampBlock.Role` does yet, a kernel stage.
/// docs/architecture.md walks through one. The commands are in
/// `Catalogue+Commands.swift`.
public struct Catalogue: Sendable {
    /// The kinds of strip, in order (`Catalogue+Kinds.swift`).
    public let kinds: [StripKind]
    /// The recall safes (`RecallSafe.swift`): the rig's own, then one for
    /// each kind kept in banks.
    public let safes: [RecallSafe]
    public let parameters: [Parameter]
    /// The kernel's blocks, in order, and the block of each parameter (nil
    /// for parameters without one).
    public let blocks: [RampBlock]
    public let blockOfParameter: [Int?]
    /// The solo gates' block: 1 while a source is heard as far as solo
    /// goes, 0 while another source's solo silences it.
    public let soloGateBlock: Int
    /// The group blocks (`Catalogue+Groups.swift`): each source's gain from
    /// its DCAs (by the fader law) and its group gate (0 while a DCA or
    /// mute group it belongs to is muted); −1 without groups.
    public let groupGainBlock: Int
    public let groupGateBlock: Int
    /// The talkbacks' blocks (`Catalogue+Talkback.swift`): the first of
    /// `Talkbacks.most` output blocks of sends, a talkback's each, and the
    /// outputs' dim; −1 without talkbacks.
    public let talkSendBlock: Int
    public let talkDimBlock: Int
    /// The listen's blocks (`Catalogue+Listen.swift`): the first of the
    /// sources' two sides, of the outputs' two, and the master's listen
    /// lanes; −1 without a listen.
    public let listenSourceBlock: Int
    public let listenOutputBlock: Int
    public let listenMixBlock: Int
    /// The longest output delay, in milliseconds.
    public let longestDelay: Float

    /// `serve --max-delay-ms`'s default, in milliseconds.
    public static let defaultLongestDelay: Float = 500
    /// The range `--max-delay-ms` takes.
    public static let longestDelays: ClosedRange<Float> = 0...10_000

    /// The catalogue of a rig whose outputs delay by at most `longestDelay`
    /// ms; with the kinds of strip `adding`, after the rig's own, and their
    /// parameters.
    public init(longestDelay: Float = Catalogue.defaultLongestDelay,
                adding: [(kind: StripKind, parameters: [Parameter])] = []) {
        self.longestDelay = longestDelay
        kinds = Self.builtInKinds + adding.map(\.kind)
        safes = Self.builtInSafes + adding.map(\.kind).filter { $0.storage == .bank }.map(RecallSafe.bank)
        let parameters = Self.entries(longestDelay: longestDelay) + adding.flatMap(\.parameters)
        self.parameters = parameters
        var blocks: [RampBlock] = [], blockOf: [Int?] = [], soloGate = -1, groupGain = -1, groupGate = -1
        var talkSend = -1, talkDim = -1, listenSource = -1, listenOutput = -1, listenMix = -1
        for parameter in parameters {
            switch parameter.kernel {
            case .ramp(let block, _):
                blockOf.append(blocks.count)
                blocks.append(block)
            case .soloGate:
                blockOf.append(nil)
                soloGate = blocks.count
                blocks.append(RampBlock(.source, .gate, .linear))
            case .groups:
                blockOf.append(nil)
                guard groupGain < 0 else { continue }
                (groupGain, groupGate) = (blocks.count, blocks.count + 1)
                blocks += [RampBlock(.source, .gain, .fader), RampBlock(.source, .gain, .linear)]
            case .talkbacks:
                blockOf.append(nil)
                guard talkSend < 0 else { continue }
                talkSend = blocks.count
                // A send is a level: it fades by the fader law, as the talkback's level does.
                blocks += (1...Talkbacks.most).map { RampBlock(.output, .talk($0), .fader) }
                talkDim = blocks.count
                blocks.append(RampBlock(.output, .gain, .linear))
            case .listen:
                blockOf.append(nil)
                guard listenMix < 0 else { continue }
                (listenSource, listenOutput, listenMix) = (blocks.count, blocks.count + 2, blocks.count + 4)
                blocks += [RampBlock(.source, .listen(side: 0), .linear), RampBlock(.source, .listen(side: 1), .linear),
                           RampBlock(.output, .listen(side: 0), .linear), RampBlock(.output, .listen(side: 1), .linear),
                           RampBlock(.master, .listenMix, .linear)]
            case .none, .crosspoint:
                blockOf.append(nil)
            }
        }
        self.blocks = blocks
        blockOfParameter = blockOf
        soloGateBlock = soloGate
        groupGainBlock = groupGain
        groupGateBlock = groupGate
        talkSendBlock = talkSend
        talkDimBlock = talkDim
        (listenSourceBlock, listenOutputBlock, listenMixBlock) = (listenSource, listenOutput, listenMix)
    }

    /// The parameters of one strip, by their number in `parameters`, in order.
    public func numbers(of strip: Parameter.Strip) -> [Int] {
        parameters.indices.filter { parameters[$0].strip == strip }
    }

    /// The parameters of one strip a document of this kind holds, in order.
    public func numbers(of strip: Parameter.Strip, in document: Parameter.Document) -> [Int] {
        parameters.indices.filter { parameters[$0].strip == strip && parameters[$0].storage.isKept(in: document) }
    }

    /// The number of a strip's parameter called `name`.
    public func number(_ strip: Parameter.Strip, _ name: String) -> Int? {
        parameters.firstIndex { $0.strip == strip && $0.name == name }
    }

    private static func entries(longestDelay: Float) -> [Parameter] {
        [
            // Sources: the strip before the matrix.
            Parameter(.source, "name", .text(maxLength: 64), "name", default: .text("in_{n}"), kernel: .none,
                      display: .init(.text(placeholder: "in {n}"), "{Strip} name"),
                      get: { .text($0.sources[$1.channel - 1].name) },
                      set: { $0.sources[$1.channel - 1].name = $2.text }),
            Parameter(.source, "volume", .level, "level", default: .number(1),
                      kernel: .ramp(RampBlock(.source, .gain, .fader), ramp: { $0.number }), sharedByPair: true,
                      display: .init(.fader, "{Strip} level"),
                      get: { .number($0.sources[$1.channel - 1].volume) },
                      set: { $0.sources[$1.channel - 1].volume = $2.number }),
            Parameter(.source, "pan", .number(-1...1, unit: "none"), "pan, -1 left to +1 right", default: .number(0),
                      kernel: .ramp(RampBlock(.source, .pan, .linear), ramp: { $0.number }), sharedByPair: true,
                      display: .init(.pan, "{Strip} pan"),
                      get: { .number($0.sources[$1.channel - 1].pan) },
                      set: { $0.sources[$1.channel - 1].pan = $2.number }),
            // A mute is a gate: the gain ramps to 0 and back.
            Parameter(.source, "mute", .toggle, "mute", default: .toggle(false),
                      kernel: .ramp(RampBlock(.source, .gain, .linear), ramp: { $0.isOn ? 0 : 1 }), sharedByPair: true,
                      display: .init(.toggle(label: "M"), "Mute {strip}"),
                      get: { .toggle($0.sources[$1.channel - 1].mute) },
                      set: { $0.sources[$1.channel - 1].mute = $2.isOn }),
            Parameter(.source, "solo", .toggle, "solo", default: .toggle(false), kernel: .soloGate, sharedByPair: true,
                      display: .init(.toggle(label: "S"), "Solo {strip}"),
                      get: { .toggle($0.sources[$1.channel - 1].solo) },
                      set: { $0.sources[$1.channel - 1].solo = $2.isOn }),
            // Polarity is a gain of -1: flipping it ramps through silence.
            Parameter(.source, "invert", .toggle, "polarity inverted", default: .toggle(false),
                      kernel: .ramp(RampBlock(.source, .polarity, .linear), ramp: { $0.isOn ? -1 : 1 }), sharedByPair: true,
                      display: .init(.toggle(label: "Ø"), "Invert polarity of {strip}"),
                      get: { .toggle($0.sources[$1.channel - 1].invert) },
                      set: { $0.sources[$1.channel - 1].invert = $2.isOn }),
            // A stereo pair (1-2, 3-4, …) as one source: its pan a balance
            // (the kernel's link ramp crossfades law and balance).
            Parameter(.source, "link", .toggle, "stereo link with its pair (1-2, 3-4, …): one control for both, the pan a balance",
                      default: .toggle(false),
                      kernel: .ramp(RampBlock(.source, .link, .linear), ramp: { $0.isOn ? 1 : 0 }), sharedByPair: true,
                      display: .init(.toggle(label: "Link"), "Link {strip} with its pair"),
                      get: { .toggle($0.sources[$1.channel - 1].link) },
                      set: { $0.sources[$1.channel - 1].link = $2.isOn }),
            // Where its signal comes from: the rig's wiring, not the scene's
            // (docs/sources.md). The supervisor connects what it names.
            Parameter(.source, "patch", .text(maxLength: PortPattern.longest),
                      "input patch: a POSIX extended regular expression for the other clients' output ports (client:port) that feed it; the first match does",
                      default: .text(""), kernel: .none, storage: .rig,
                      display: .init(.patch, "{Strip} input patch"),
                      check: { PortPattern.problem($0.text) },
                      get: { .text($0.sources[$1.channel - 1].patch) },
                      set: { $0.sources[$1.channel - 1].patch = $2.text }),
            // Where its direct out taps it: the rig's wiring, kept in the
            // state file (docs/sources.md). The supervisor makes the port.
            Parameter(.source, "direct", .text(maxLength: 16),
                      "direct out on the JACK port direct_{n}: off, pre (after polarity, before level and mute) or post (after level and mute; another source's solo never silences it)",
                      default: .text(DirectTap.off.rawValue),
                      kernel: .ramp(RampBlock(.source, .direct, .linear), ramp: { DirectTap(rawValue: $0.text)?.number ?? 0 }),
                      storage: .rig,
                      display: .init(.choice(options: DirectTap.allCases.map(\.rawValue)), "{Strip} direct out"),
                      check: { DirectTap(rawValue: $0.text) == nil ? "'\($0.text)' is not a direct out tap: off, pre or post" : nil },
                      get: { .text($0.sources[$1.channel - 1].direct.rawValue) },
                      set: { $0.sources[$1.channel - 1].direct = DirectTap(rawValue: $2.text) ?? .off }),
            // Whether anything feeds it: reported by the supervisor from JACK.
            Parameter(.source, "present", .toggle, "present: 1 while any port is connected to its input",
                      default: .toggle(false), kernel: .none, storage: .live,
                      display: .init(.presence, "{Strip} present"),
                      get: { .toggle($0.sources[$1.channel - 1].present) },
                      set: { $0.sources[$1.channel - 1].present = $2.isOn }),

            // The matrix.
            Parameter(.crosspoint, "", .level, "level", default: .number(0), kernel: .crosspoint, reach: .mix,
                      display: .init(.fader, "{Strip}"),
                      get: { scene, place in
                          guard case .crosspoint(let i, let o) = place else { return .number(0) }
                          return .number(scene.crosspoints[i, o])
                      },
                      set: { scene, place, value in
                          guard case .crosspoint(let i, let o) = place else { return }
                          scene.crosspoints[i, o] = value.number
                      }),

            // Outputs: after the matrix, before the master.
        ] + eqEntries.filter { $0.strip == .source } + [
            Parameter(.output, "name", .text(maxLength: 64), "name", default: .text("out_{m}"), kernel: .none,
                      display: .init(.text(placeholder: "out {n}"), "{Strip} name"),
                      get: { .text($0.outputs[$1.channel - 1].name) },
                      set: { $0.outputs[$1.channel - 1].name = $2.text }),
            Parameter(.output, "volume", .level, "level", default: .number(1),
                      kernel: .ramp(RampBlock(.output, .gain, .fader), ramp: { $0.number }), reach: .mix,
                      display: .init(.fader, "{Strip} level"),
                      get: { .number($0.outputs[$1.channel - 1].volume) },
                      set: { $0.outputs[$1.channel - 1].volume = $2.number }),
            Parameter(.output, "mute", .toggle, "mute", default: .toggle(false),
                      kernel: .ramp(RampBlock(.output, .gain, .linear), ramp: { $0.isOn ? 0 : 1 }), reach: .mix,
                      display: .init(.toggle(label: "M"), "Mute {strip}"),
                      get: { .toggle($0.outputs[$1.channel - 1].mute) },
                      set: { $0.outputs[$1.channel - 1].mute = $2.isOn }),
            // The delay stage takes seconds; the scene and the wire, milliseconds.
            Parameter(.output, "delay", .number(0...longestDelay, unit: "time.ms"), "delay in milliseconds, for aligning speakers",
                      default: .number(0),
                      kernel: .ramp(RampBlock(.output, .delay, .linear), ramp: { $0.number / 1000 }), reach: .mix,
                      display: .init(.number(step: 0.1, suffix: "ms"), "{Strip} delay in ms"),
                      get: { .number($0.outputs[$1.channel - 1].delay) },
                      set: { $0.outputs[$1.channel - 1].delay = $2.number }),
        ] + eqEntries.filter { $0.strip == .output } + limiterEntries + [

            // The master, on every output.
            Parameter(.master, "volume", .level, "level", default: .number(1),
                      kernel: .ramp(RampBlock(.master, .gain, .fader), ramp: { $0.number }),
                      display: .init(.fader, "{Strip} level"),
                      get: { scene, _ in .number(scene.master.volume) },
                      set: { scene, _, value in scene.master.volume = value.number }),
            Parameter(.master, "mute", .toggle, "mute", default: .toggle(false),
                      kernel: .ramp(RampBlock(.master, .gain, .linear), ramp: { $0.isOn ? 0 : 1 }),
                      display: .init(.toggle(label: "M"), "Mute {strip}"),
                      get: { scene, _ in .toggle(scene.master.mute) },
                      set: { scene, _, value in scene.master.mute = value.isOn }),
        ] + groupEntries + talkbackEntries + listenEntries
    }
}
