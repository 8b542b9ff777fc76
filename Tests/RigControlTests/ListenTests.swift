import Catalogue
import Foundation
import MixCore
import OSC
import Presets
import RigControl
import SceneModel
import Testing

/// The engineer's listen on the control side (issue 37): what is selected
/// moves each source's and output's share of each side, exclusive mode
/// keeps one, the default pair plays with nothing selected, a talk dims it,
/// and bad input is refused.
@Suite struct ListenTests {
    /// A 4x6 rig with two talkbacks, its outputs in stereo pairs.
    static func controller() -> Controller {
        let scene = Catalogue().scene([.source: 4, .output: 6, .talkback: 2])
        let c = makeController(state: RigState(scene: scene))
        return c
    }

    /// Where each side's shares are heading: sources' (left, right), outputs' (left, right), and the listen's gain.
    static func shares(_ c: Controller) -> (sources: [[Float]], outputs: [[Float]], gain: Float) {
        c.mixer.drainQueue()
        let catalogue = Catalogue(), ramps = c.mixer.rampLayout
        func target(_ block: Int, _ channel: Int) -> Float {
            c.mixer.offlineKernel.pointee.ramp(ramps.slot(block: block, channel: channel)).targetValue
        }
        let sources = (0..<2).map { side in (1...4).map { target(catalogue.listenSourceBlock + side, $0) } }
        let outputs = (0..<2).map { side in (1...6).map { target(catalogue.listenOutputBlock + side, $0) } }
        return (sources, outputs, target(catalogue.listenMixBlock, Listen.levelLane + 1))
    }

    @Test func exclusiveModeKeepsTheLastSelectedAndAdditiveSums() {
        let c = Self.controller()
        #expect(Self.shares(c).gain == 1 && Self.shares(c).outputs == [[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]], "silence")
        c.send("/source/2/listen", .int32(1))
        #expect(Self.shares(c).sources == [[0, 1, 0, 0], [0, 1, 0, 0]], "a source alone is in the middle")
        c.send("/output/3/listen", .int32(1))
        var shares = Self.shares(c)
        #expect(shares.sources == [[0, 0, 0, 0], [0, 0, 0, 0]], "exclusive: the source left it")
        #expect(shares.outputs == [[0, 0, 1, 0, 0, 0], [0, 0, 0, 1, 0, 0]], "output 3 brings its pair, in stereo")
        #expect(c.send("/source/2/listen").first?.messages.first?.arguments == [.int32(0)])
        #expect(c.send("/listen/output").first?.messages.first?.arguments == [.string("3")])

        c.send("/listen/mode", .string("additive"))
        c.send("/output/4/listen", .int32(1))
        c.send("/source/1/invert", .int32(1))
        c.send("/source/1/listen", .int32(1))
        shares = Self.shares(c)
        #expect(shares.outputs == [[0, 0, 1, 0, 0, 0], [0, 0, 0, 1, 0, 0]], "additive: the pair in stereo")
        #expect(shares.sources == [[-1, 0, 0, 0], [-1, 0, 0, 0]], "after its polarity")
        #expect(c.send("/listen/source").first?.messages.first?.arguments == [.string("1")])
        #expect(c.send("/listen/output").first?.messages.first?.arguments == [.string("3,4")])

        c.send("/listen/clear")
        #expect(Self.shares(c).outputs == [[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]] && Self.shares(c).sources[0] == [0, 0, 0, 0])
    }

    @Test func aLinkedPairIsHeardInStereoAndTheDefaultPairWithNothingSelected() {
        let c = Self.controller()
        c.send("/source/3/link", .int32(1))
        c.send("/source/3/listen", .int32(1))
        c.send("/listen/mode", .string("additive"))
        c.send("/source/4/listen", .int32(1))
        #expect(Self.shares(c).sources == [[0, 0, 1, 0], [0, 0, 0, 1]])
        c.send("/listen/clear")
        c.send("/listen/default", .int32(5))
        #expect(Self.shares(c).outputs == [[0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 1]], "outputs 5 and 6 with nothing selected")
        c.send("/output/1/listen", .int32(1))
        #expect(Self.shares(c).outputs == [[1, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0]], "a selection replaces the default")
    }

    @Test func aTalkDimsTheListenAndATalkbackSentToItIsHeard() {
        let c = Self.controller()
        c.send("/talkback/2/listen", .int32(1))
        c.send("/talkback/2/db", .float(-6))
        c.send("/talkback/2/talk", .int32(1))
        #expect(abs(Self.shares(c).gain - powf(10, -20 / 20)) < 1e-6, "dimmed by -20 dB")
        let talk = c.mixer.offlineKernel.pointee.ramp(c.mixer.rampLayout.slot(block: Catalogue().listenMixBlock, channel: 2))
        #expect(abs(talk.targetValue - powf(10, -6 / 20)) < 1e-5, "talkback 2 into the listen at its level")
        c.send("/listen/dim_db", .float(0))
        #expect(Self.shares(c).gain == 1)
        c.send("/talkback/2/talk", .int32(0))
        c.send("/listen/db", .float(-12))
        #expect(abs(Self.shares(c).gain - powf(10, -12 / 20)) < 1e-5)
    }

    @Test func badListenInputIsRefusedAndChangesNothing() {
        let c = Self.controller()
        let before = c.scene
        #expect(errorReason(c.send("/listen/mode", .string("sideways"))) == "a listen mode is exclusive or additive, not 'sideways'")
        #expect(errorReason(c.send("/listen/default", .int32(2))) == "output 2 is not the first output of a stereo pair")
        #expect(errorReason(c.send("/listen/default", .float(2.5))) != nil)
        #expect(errorReason(c.send("/listen/source", .string("1"))) != nil, "reported, not set")
        #expect(errorReason(c.send("/output/9/listen", .int32(1))) == "output 9 out of range (1-6)")
        #expect(c.scene == before)
    }

    /// Found in review: the listen's settings survive a restart and a
    /// resize, a recall that flips a source's polarity moves its PFL, and a
    /// step cannot land the default pair off a pair's first output.
    @Test func theListenKeepsItsSettingsAndFollowsARecall() throws {
        let c = Self.controller()
        c.send("/listen/mode", .string("additive"))
        c.send("/listen/default", .int32(3))
        c.send("/listen/db", .float(-6))
        let state = RigState(scene: c.stateNow().scene)
        let (read, _) = try RigState.read(state.encoded(catalogue: Catalogue()), file: "state.json", catalogue: Catalogue())
        let (fitted, _) = read.fitted(inputs: 4, outputs: 6, banks: read.scene.banks, catalogue: Catalogue())
        #expect(fitted.scene.listen == c.scene.listen && c.scene.listen.mode == "additive", "a restart keeps them")
        #expect(errorReason(c.send("/rig/outputs", .int32(8))) == nil)
        #expect(c.scene.listen.defaultPair == 3 && abs(Self.shares(c).gain - powf(10, -6 / 20)) < 1e-5, "and a resize")
        #expect(errorReason(c.send("/listen/default/delta", .int32(1))) == "output 4 is not the first output of a stereo pair")

        c.send("/source/2/listen", .int32(1))
        c.send("/preset/save", .string("flipped"))
        c.send("/source/2/invert", .int32(1))
        #expect(Self.shares(c).sources[0][1] == -1)
        c.send("/preset/recall", .string("flipped"), .float(0))
        #expect(Self.shares(c).sources[0][1] == 1, "the recall put its polarity back, and its PFL with it")
    }

    @Test func aRecallNeverChangesTheListen() {
        let c = Self.controller()
        c.send("/preset/save", .string("plain"))
        c.send("/output/2/listen", .int32(1))
        c.send("/listen/db", .float(-6))
        c.send("/preset/recall", .string("plain"), .float(0))
        #expect(c.send("/output/2/listen").first?.messages.first?.arguments == [.int32(1)])
        #expect(Self.shares(c).outputs[1][1] == 1)
        let text = String(decoding: RigState(scene: c.stateNow().scene).encoded(catalogue: Catalogue()), as: UTF8.self)
        #expect(text.contains("\"listen\": {") && !text.contains("\"listen\": true"), "its settings, not its selection: \(text)")
    }
}
