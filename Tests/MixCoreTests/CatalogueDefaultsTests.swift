import Foundation
import Catalogue
import MixCore
import SceneModel
import Testing

/// The catalogue's defaults are facts about a new `Scene`: the scene's parts
/// hold them as field initialisers (the scene is a value type of its own
/// module), and this test holds the two equal, so neither can drift.
@Suite struct CatalogueDefaultsTests {
    @Test func everyParameterOfANewSceneHasItsCataloguedDefault() {
        let catalogue = Catalogue()
        let scene = Scene(inputs: 5, outputs: 3, dcas: 2, muteGroups: 3)
        var checked = 0
        for parameter in catalogue.parameters {
            for place in catalogue.places(parameter.strip, of: scene) {
                var expected = parameter.defaultValue
                switch (expected, place) {
                // Names are numbered: "in_{n}", "out_{m}".
                case (.text(let template), .source(let n)):
                    expected = .text(template.replacingOccurrences(of: "{n}", with: "\(n)"))
                case (.text(let template), .output(let m)):
                    expected = .text(template.replacingOccurrences(of: "{m}", with: "\(m)"))
                // "dca_{g}", "mutegroup_{g}".
                case (.text(let template), .dca(let g)), (.text(let template), .muteGroup(let g)):
                    expected = .text(template.replacingOccurrences(of: "{g}", with: "\(g)"))
                // A new scene routes input k to output k at unity.
                case (_, .crosspoint(let input, let output)) where input == output:
                    expected = .number(1)
                default:
                    break
                }
                #expect(parameter.get(scene, place) == expected, "\(parameter.strip) \(parameter.name) at \(place)")
                checked += 1
            }
        }
        // 5 sources × 35 (link, patch, direct, presence and listen among them; the low cut's 3, the
        // EQ's switch and 4 bands × 5), 15 crosspoints, 3 outputs × 46 (the low and high cuts' 3 each,
        // the EQ's switch, 6 bands × 5, the limiter's 4, listen), the master's 2; 5 × 2 DCA and 5 × 3
        // mute-group memberships, 2 DCAs × 3, 3 mute groups × 2; the listen's 6.
        #expect(checked == 5 * 35 + 15 + 3 * 46 + 2 + 10 + 15 + 6 + 6 + 6)
    }
}
