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
        // Strips a scene lacks are left out (a preset saved with fewer groups).
        let counts = catalogue.counts(of: from).merging(catalogue.counts(of: to), uniquingKeysWith: min)
        for kind in catalogue.kinds {
            for place in catalogue.places(kind.strip, counts: counts) {
                for number in catalogue.numbers(of: kind.strip, in: .preset) {
                    let parameter = catalogue.parameters[number]
                    let a = SceneTable.cell(parameter, parameter.get(from, place))
                    let b = SceneTable.cell(parameter, parameter.get(to, place))
                    if a != b { lines.append("\(Self.label(parameter, at: place, kind: kind)): \(a) -> \(b)") }
                }
            }
        }
        return lines
    }

    /// "source 2 level", "output 1 delay", "crosspoint 1 -> 3", "master mute",
    /// "dca 1 level", "source 2 in dca 1": a strip by the first part of its address.
    static func label(_ parameter: Parameter, at place: Parameter.Place, kind: StripKind) -> String {
        let what = parameter.isLevel ? "level" : parameter.name
        let head = kind.head ?? kind.strip.name
        switch (kind.shape, place) {
        case (_, .crosspoint(let input, let output)): return "crosspoint \(input) -> \(output)"
        case (.membership(let owner, _, let field), _): return "\(owner.name) \(place.channel) in \(field) \(place.group)"
        case (.single, _): return "\(head) \(what)"
        default: return "\(head) \(place.channel) \(what)"
        }
    }
}
