import Catalogue
import MixCore
import SceneModel

/// What changes between two scenes of the same size (`crosspoint preset
/// diff`), one line per parameter that differs, for every parameter of the
/// catalogue: what a recall from one to the other would move.
public struct SceneDifference {
    public let from: Scene
    public let to: Scene
    public let catalogue: Catalogue

    public init(from: Scene, to: Scene, catalogue: Catalogue = Catalogue()) {
        self.from = from
        self.to = to
        self.catalogue = catalogue
    }

    public var lines: [String] {
        var lines: [String] = []
        // Groups a scene lacks are left out (a preset saved with fewer).
        let (dcas, muteGroups) = (min(from.dcas.count, to.dcas.count), min(from.muteGroups.count, to.muteGroups.count))
        for strip in [Parameter.Strip.source, .dcaMember, .muteGroupMember, .crosspoint, .output, .master, .dca, .muteGroup] {
            for place in catalogue.places(strip, inputs: from.inputCount, outputs: from.outputCount, dcas: dcas,
                                          muteGroups: muteGroups) {
                for number in catalogue.numbers(of: strip, in: .preset) {
                    let parameter = catalogue.parameters[number]
                    let a = SceneTable.cell(parameter, parameter.get(from, place))
                    let b = SceneTable.cell(parameter, parameter.get(to, place))
                    if a != b { lines.append("\(Self.label(parameter, at: place)): \(a) -> \(b)") }
                }
            }
        }
        return lines
    }

    /// "source 2 level", "output 1 delay", "crosspoint 1 -> 3", "master mute",
    /// "dca 1 level", "source 2 in dca 1".
    static func label(_ parameter: Parameter, at place: Parameter.Place) -> String {
        let what = parameter.isLevel ? "level" : parameter.name
        switch place {
        case .source(let n): return "source \(n) \(what)"
        case .output(let m): return "output \(m) \(what)"
        case .master: return "master \(what)"
        case .crosspoint(let i, let o): return "crosspoint \(i) -> \(o)"
        case .dca(let g): return "dca \(g) \(what)"
        case .muteGroup(let g): return "mutegroup \(g) \(what)"
        case .dcaMember(let n, let g): return "source \(n) in dca \(g)"
        case .muteGroupMember(let n, let g): return "source \(n) in mutegroup \(g)"
        }
    }
}
