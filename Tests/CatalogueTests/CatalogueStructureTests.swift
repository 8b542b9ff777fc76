import Catalogue
import ControlPage
import Foundation
import Logging
import MixCore
import SceneModel
import OSC
import Presets
import RigControl
import Testing

/// The catalogue is the one description of the rig: every entry reaches
/// every place derived from it. Each test fails for an entry that has no
/// preset field, no OSCQuery node, no page control, or no `preset show` /
/// `preset diff` row, so a new entry cannot silently miss one.
@Suite struct CatalogueStructureTests {
    let catalogue = Catalogue(longestDelay: 2000)

    /// A value other than the parameter's default, in its range.
    static func other(_ parameter: Parameter) -> Parameter.Value {
        switch parameter.kind {
        case .level: .number(0.5)
        // A value its check takes, not the default (a cut's slope is 12 or 24).
        case .number(let range, _): .number(parameter.defaultValue.number == range.upperBound ? range.lowerBound : range.upperBound)
        case .toggle: .toggle(!parameter.defaultValue.isOn)
        case .text:
            // A choice: another of its options.
            if case .choice(let options) = parameter.display.control,
               let option = options.first(where: { $0 != parameter.defaultValue.text }) {
                .text(option)
            } else {
                .text(parameter.name == "patch" ? "^player:out_1$" : parameter.name == "direct" ? "post"
                      : parameter.name.hasSuffix("/type") ? (parameter.defaultValue.text == "peak" ? "highshelf" : "peak")
                      : "changed")
            }
        }
    }

    /// Two of every numbered kind.
    static let counts: [Parameter.Strip: Int] = [.source: 2, .output: 2, .dca: 2, .muteGroup: 2, .talkback: 2]

    /// The first place of a strip on a 2x2 rig with two DCAs, two mute groups and two talkbacks.
    func place(_ strip: Parameter.Strip) -> Parameter.Place {
        catalogue.places(strip, counts: Self.counts)[0]
    }

    /// A 2x2 scene with two DCAs, two mute groups and two talkbacks.
    static func scene() -> Scene { Catalogue().scene(counts) }

    /// How a file names a parameter's field: a membership by its list (`"dca": [1]`).
    static func field(_ parameter: Parameter) -> String {
        if let membership = Catalogue().memberships.first(where: { $0.kind.strip == parameter.strip }) {
            return "\"\(membership.field)\": [1]"
        }
        return parameter.strip == .crosspoint ? "\"volume\"" : "\"\(parameter.name)\":"
    }

    /// The fields of the first entry of a numbered kind's list in a file (a
    /// membership's: its owner's), or of a single kind's object, none if it
    /// has none; nil for other strips.
    static func fields(of strip: Parameter.Strip, in file: Data) -> Set<String>? {
        let catalogue = Catalogue()
        let owner = catalogue.memberships.first { $0.kind.strip == strip }?.owner.strip ?? strip
        if let kind = catalogue.kind(owner), kind.shape == .single, let field = kind.field {
            guard let document = try? JSONSerialization.jsonObject(with: file) as? [String: Any] else { return nil }
            return Set((document[field] as? [String: Any])?.keys.map { $0 } ?? [])
        }
        let list = catalogue.kind(owner).flatMap { $0.shape == .numbered ? $0.field : nil }
        guard let list, let document = try? JSONSerialization.jsonObject(with: file) as? [String: Any] else { return nil }
        // A kind the file lists none of holds none of its fields.
        guard let entries = document[list] as? [[String: Any]], let first = entries.first else { return [] }
        return Set(first.keys)
    }

    /// The scene's parameters are fields of presets and of the state file;
    /// the rig's wiring (a patch) of the state file alone; what the rig
    /// reports (presence) of neither.
    @Test func everyParameterIsAFieldOfTheFilesItsStorageNamesAndComesBackFromThem() throws {
        for parameter in catalogue.parameters {
            var scene = Self.scene()
            let where_ = place(parameter.strip)
            parameter.set(&scene, where_, Self.other(parameter))
            let field = Self.field(parameter)
            let what = "\(parameter.strip) \(parameter.name)"

            let preset = PresetCoding.encode(Preset(name: "x", scene: scene), catalogue: catalogue)
            let inPreset = String(decoding: preset, as: UTF8.self).contains(field)
            // An output's EQ field has a source's name (`hpf/on`): for a
            // source's or an output's, the field of its own strip's entry.
            let name = catalogue.memberships.first { $0.kind.strip == parameter.strip }?.field ?? parameter.name
            let held = Self.fields(of: parameter.strip, in: preset).map { $0.contains(name) } ?? inPreset
            #expect(held == parameter.storage.isKept(in: .preset), "\(what): in presets \(held)")
            let read = try PresetCoding.decode(preset, file: "x.json", catalogue: catalogue)
            let expected = parameter.storage.isKept(in: .preset) ? Self.other(parameter) : parameter.get(Self.scene(), where_)
            #expect(parameter.get(read.scene, where_) == expected, "\(what) from a preset")

            let state = RigState(scene: scene).encoded(catalogue: catalogue)
            let inState = Self.fields(of: parameter.strip, in: state).map { $0.contains(name) }
                ?? String(decoding: state, as: UTF8.self).contains(field)
            #expect(inState == parameter.storage.isKept(in: .state), "\(what): in the state file \(inState)")
            let restored = try RigState.decode(state, file: "state.json", catalogue: catalogue)
            let kept = parameter.storage.isKept(in: .state) ? Self.other(parameter) : parameter.get(Self.scene(), where_)
            #expect(parameter.get(restored.scene, where_) == kept, "\(what) from the state file")
        }
    }

    @Test func everyParameterOfPresetsHasADiffLineAndATableColumn() {
        for parameter in catalogue.parameters where parameter.storage.isKept(in: .preset) {
            var scene = Self.scene()
            parameter.set(&scene, place(parameter.strip), Self.other(parameter))
            let lines = SceneDifference(from: Self.scene(), to: scene, catalogue: catalogue).lines
            #expect(lines.count == 1, "\(parameter.strip) \(parameter.name): \(lines)")
            guard parameter.strip != .crosspoint else { continue }
            let table = SceneTable(preset: Preset(name: "x", scene: scene), catalogue: catalogue).text
            if let membership = catalogue.sourceMemberships.map { (strip: $0.kind.strip, field: $0.field) }.first(where: { $0.strip == parameter.strip }) {
                // A source's row lists its groups: "1" in the column of its kind.
                let row = table.split(separator: "\n").drop { !$0.hasPrefix("source") }.dropFirst().first ?? ""
                let cells = row.split(separator: " ").suffix(2).map(String.init) // dca, mutegroup
                #expect(cells == (parameter.strip == .dcaMember ? ["1", "-"] : ["-", "1"]), "\(parameter.strip): \(table)")
                continue
            }
            #expect(table.contains(SceneTable.heading(parameter)), "\(parameter.strip) \(parameter.name) has no column")
        }
    }

    @Test func everyParameterFormAndCommandIsAnOSCQueryNode() {
        let scene = Self.scene()
        let controller = Controller(
            state: RigState(scene: scene), mixer: Mixer(scene: scene, catalogue: catalogue, panLaw: .balance,
                                                        layout: OutputLayout(outputs: 2)),
            catalogue: catalogue,
            store: PresetStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("none")),
            smoothingSeconds: 0.02, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        var described: [String: ParameterDescription] = [:]
        controller.describeAddresses { described[$0.address] = $0 }
        for (number, parameter) in catalogue.parameters.enumerated() {
            for form in parameter.kind.forms {
                let address = controller.addressSpace.address(.parameter(number, place(parameter.strip), form))
                let node = described[address]
                #expect(node != nil, "\(address) is not described")
                #expect(node?.signature.typeTags == String(parameter.kind.typeTag), "\(address)")
                #expect(node?.signature.unit == [parameter.kind.unit(form)], "\(address)")
            }
        }
        for command in Catalogue.commands(inputs: 2, outputs: 2) {
            #expect(described[command.address] != nil, "\(command.address) is not described")
        }
        for safe in catalogue.safes {
            #expect(described[safe.address("1")] != nil, "\(safe.address("1")) is not described")
        }
    }

    /// The page builds its controls from `catalogue.json`: every parameter
    /// and safe of a strip is in it, and the page has a builder for the
    /// control kind of each.
    @Test func everyParameterHasAPageControlOfItsKind() throws {
        let json = PageDescription.json(catalogue)
        let description = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let strips = try #require(description["strips"] as? [String: [[String: Any]]])
        let page = try #require(ControlPage.files["strips.js"]?.text)
        let builders = page.split(separator: "\n").drop { !$0.hasPrefix("export const controls = {") }
            .prefix { $0 != "};" }.joined(separator: "\n")
        for kind in Parameter.Control.allNames {
            #expect(builders.contains("  \(kind)(entry"), "strips.js has no builder for \(kind) controls")
        }
        let memberships = try #require(description["memberships"] as? [[String: Any]])
        for (strip, field) in catalogue.sourceMemberships.map({ ($0.kind.strip, $0.field) }) {
            let entry = memberships.first { $0["group"] as? String == field }
            #expect(entry?["address"] as? String == "/source/{n}/\(field)/{g}", "\(strip)")
            #expect(entry?["control"] as? String == "toggle", "\(strip)")
        }
        // A talkback's destinations are not among a strip's controls: they
        // are its settings view's (destinations.js), from the talkback's membership.
        let destinations = memberships.first { $0["owner"] as? String == "talkback" }
        #expect(destinations?["address"] as? String == "/talkback/{n}/output/{g}" && destinations?["group"] as? String == "output")
        #expect(memberships.filter { $0["owner"] as? String == "source" }.count == catalogue.sourceMemberships.count)
        for parameter in catalogue.parameters
        where ![Parameter.Strip.crosspoint, .dcaMember, .muteGroupMember, .talkbackOutput].contains(parameter.strip) {
            let key = parameter.strip == .muteGroup ? "mutegroup" : "\(parameter.strip)"
            let entry = strips[key]?.first { $0["name"] as? String == parameter.name }
            #expect(entry?["control"] as? String == parameter.display.control.name, "\(key) \(parameter.name)")
            #expect((entry?["pages"] as? [String])?.contains("engineer") == true, "\(key) \(parameter.name)")
            // A fader reads its level in linear gain, the form the page subscribes to.
            let linear = parameter.kind.forms.contains(.linear) ? Parameter.leaf(parameter.name, .linear) : nil
            let single = catalogue.kind(parameter.strip)?.shape == .single
            #expect(entry?["gain"] as? String == linear.map { "/\(single ? key : "\(key)/{n}")/\($0)" },
                    "\(key) \(parameter.name)")
        }
        for safe in catalogue.safes {
            let entries = strips["\(safe.strip)"] ?? []
            #expect(entries.contains { $0["address"] as? String == safe.address("{n}") }, "\(safe.kind) safe")
        }
        #expect((description["matrix"] as? [String: Any])?["address"] as? String == "/matrix/{n}/{m}/fader")
        #expect((description["matrix"] as? [String: Any])?["gain"] as? String == "/matrix/{n}/{m}")
        // How titles name each strip's places, as the rig's own titles do.
        let places = try #require(description["places"] as? [String: [String: String]])
        #expect(Set(places.keys) == Set(strips.keys), "\(places)")
        #expect(places["dca"] == ["strip": "DCA {n}", "Strip": "DCA {n}", "plural": "DCAs"])
        #expect(places["mutegroup"] == ["strip": "mute group {n}", "Strip": "Mute group {n}", "plural": "mute groups"])
        #expect(places["source"] == ["strip": "source {n}", "Strip": "Source {n}", "plural": "sources"])
        #expect(places["master"] == ["strip": "master", "Strip": "Master", "plural": "masters"])
    }

    /// Which parameters a performer's role may change is the catalogue's
    /// word, and only on parameters that belong to one output.
    @Test func onlyAnOutputsOwnParametersReachAPerformersMix() {
        for parameter in catalogue.parameters where parameter.reach == .mix {
            #expect(parameter.strip == .output || parameter.strip == .crosspoint, "\(parameter.strip) \(parameter.name)")
        }
        let mixable = catalogue.parameters.filter { $0.reach == .mix }.map { "\($0.strip) \($0.name)" }
        #expect(mixable == ["crosspoint ", "output volume", "output mute", "output delay"])
    }
}
