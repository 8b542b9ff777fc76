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
        for strip in [Parameter.Strip.source, .crosspoint, .output, .master] {
            for place in catalogue.places(strip, inputs: from.inputCount, outputs: from.outputCount) {
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

    /// "source 2 level", "output 1 delay", "crosspoint 1 -> 3", "master mute".
    static func label(_ parameter: Parameter, at place: Parameter.Place) -> String {
        let what = parameter.isLevel ? "level" : parameter.name
        switch place {
        case .source(let n): return "source \(n) \(what)"
        case .output(let m): return "output \(m) \(what)"
        case .master: return "master \(what)"
        case .crosspoint(let i, let o): return "crosspoint \(i) -> \(o)"
        }
    }
}
