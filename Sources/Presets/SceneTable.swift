import Catalogue
import MixCore
import SceneModel
import SystemSupport

/// A preset printed for people (`crosspoint preset show`): a table of every
/// strip's parameters, a column per catalogue entry in catalogue order, the
/// crosspoints in use, and the master. A new parameter gets its column with
/// no code here.
public struct SceneTable {
    public let preset: Preset
    public let catalogue: Catalogue

    public init(preset: Preset, catalogue: Catalogue = Catalogue()) {
        self.preset = preset
        self.catalogue = catalogue
    }

    public var text: String {
        let s = preset.scene
        var lines = ["preset \(preset.name): \(s.inputCount) inputs, \(s.outputCount) outputs"
                     + (preset.fade.map { ", recall fade \(Self.format(Double($0))) s" } ?? "")]
        if let notes = preset.notes { lines.append("notes: \(notes)") }
        for kind in catalogue.kinds {
            switch kind.shape {
            case .numbered, .single:
                // A kind a preset holds nothing of (talkbacks) has no table.
                let places = catalogue.places(kind.strip, of: s)
                guard !places.isEmpty, !catalogue.numbers(of: kind.strip, in: .preset).isEmpty else { continue }
                lines.append("")
                lines += table(kind.strip, kind.head ?? kind.strip.name, places)
            case .crosspoint:
                lines.append("")
                lines += crosspoints(s)
            case .membership:
                break
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The crosspoints in use, a line per input.
    private func crosspoints(_ s: Scene) -> [String] {
        var lines = ["crosspoints in use (in -> out: dB)"]
        for n in stride(from: 1, through: s.inputCount, by: 1) {
            let row = stride(from: 1, through: s.outputCount, by: 1).filter { s.crosspoints[n, $0] != 0 }
                .map { "\($0): \(Self.decibels(s.crosspoints[n, $0]))" }
            if !row.isEmpty { lines.append("  in \(n) -> " + row.joined(separator: ", ")) }
        }
        if lines.count == 1 { lines.append("  none") }
        return lines
    }

    /// A strip's rows: a header, then one row per place. A source's row
    /// ends with the groups it belongs to ("1,3").
    private func table(_ strip: Parameter.Strip, _ title: String, _ places: [Parameter.Place]) -> [String] {
        let parameters = catalogue.numbers(of: strip, in: .preset).map { catalogue.parameters[$0] }
        let widths = parameters.map(Self.width)
        let memberships = strip == .source ? Self.memberships(of: preset.scene, catalogue) : []
        // The first column holds the title ("mutegroup" is longer than a number).
        let first = max(8, title.count + 1)
        var lines = [Self.pad(title, first) + zip(parameters, widths).map { Self.pad(Self.heading($0), $1) }.joined()
                     + memberships.map { Self.pad($0.heading, 12) }.joined()]
        for place in places {
            let cells = zip(parameters, widths).map { parameter, width in
                Self.pad(Self.cell(parameter, parameter.get(preset.scene, place)), width)
            }
            let groups = memberships.map { Self.pad($0.groups(place.channel), 12) }
            lines.append(Self.pad(place == .master ? "" : "\(place.channel)", first) + cells.joined() + groups.joined())
        }
        return lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }
    }

    /// The membership columns of a source table: "dca" and "mutegroup",
    /// each listing the groups source n belongs to ("1,3"; "-" none).
    static func memberships(of scene: Scene, _ catalogue: Catalogue)
        -> [(heading: String, groups: (Int) -> String)] {
        catalogue.sourceMemberships.compactMap { membership in
            guard membership.group.count(scene) > 0 else { return nil }
            let parameter = catalogue.parameters[membership.parameter]
            let members = catalogue.places(membership.kind.strip, of: scene).filter { parameter.get(scene, $0).isOn }
            return (membership.field, { n in
                let places = members.filter { $0.channel == n }
                return places.isEmpty ? "-" : places.map { "\($0.group)" }.joined(separator: ",")
            })
        }
    }

    /// A column's heading: "dB" for a level, a delay's unit after its name.
    public static func heading(_ parameter: Parameter) -> String {
        switch parameter.kind {
        case .level: "dB"
        case .number(_, let unit) where unit == "time.ms": "\(parameter.name) ms"
        default: parameter.name
        }
    }

    static func width(_ parameter: Parameter) -> Int {
        switch parameter.kind {
        case .text: 18
        case .level, .number: max(8, heading(parameter).count + 1)
        case .toggle: max(5, parameter.name.count + 1)
        }
    }

    /// A value for people: a level in dB, a toggle as its label or "-".
    static func cell(_ parameter: Parameter, _ value: Parameter.Value) -> String {
        switch value {
        case .number(let number): parameter.isLevel ? decibels(number) : format(Double(number))
        case .toggle(let on):
            if case .toggle(let label) = parameter.display.control, on { label } else { on ? "on" : "-" }
        case .text(let text): text
        }
    }

    /// A level in dB for people: "off" for silence, one decimal otherwise.
    static func decibels(_ gain: Float) -> String {
        gain <= 0 ? "off" : cFormat("%+.1f", FaderLaw.decibels(gain: gain))
    }

    static func format(_ value: Double) -> String { cFormat("%g", value) }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
