import Catalogue
import Foundation
import MixCore
import OSC
import Presets
import RigControl
import SceneModel
import Testing

/// Talkbacks on the control side (issue 37): `/talkback/{t}/…` moves the
/// outputs' talk sends and dims, a latched talk flips on each tap, bad
/// input is refused and changes nothing, and neither a recall nor the
/// state file's restart brings back a talk.
@Suite struct TalkbackTests {
    /// A 4x6 rig with two talkbacks.
    static func controller(state: RigState? = nil) -> Controller {
        makeController(state: state ?? RigState(scene: Catalogue().scene([.source: 4, .output: 6, .talkback: 2])))
    }

    /// Where the talk sends of talkback t and the dims are heading, per output.
    static func sends(_ c: Controller, _ t: Int) -> [Float] {
        c.mixer.drainQueue()
        let p = c.mixer.parameters
        return (1...6).map { c.mixer.offlineKernel.pointee.ramp(p.talkSend(t, $0)).targetValue }
    }

    static func dims(_ c: Controller) -> [Float] {
        c.mixer.drainQueue()
        let p = c.mixer.parameters
        return (1...6).map { c.mixer.offlineKernel.pointee.ramp(p.talkDim($0)).targetValue }
    }

    @Test func aTalkReachesItsDestinationsAtItsLevelAndDimsThem() {
        let c = Self.controller()
        #expect(Self.dims(c) == [1, 1, 1, 1, 1, 1], "no dim while nothing talks")
        c.send("/talkback/1/output/3", .int32(1))
        c.send("/talkback/1/output/5", .int32(1))
        c.send("/talkback/1/db", .float(-6))
        #expect(Self.sends(c, 1) == [0, 0, 0, 0, 0, 0], "destinations alone send nothing")
        c.send("/talkback/1/talk", .int32(1))
        let level = powf(10, -6 / 20)
        let sends = Self.sends(c, 1)
        #expect(abs(sends[2] - level) < 1e-5 && abs(sends[4] - level) < 1e-5, "\(sends)")
        #expect([0, 1, 3, 5].allSatisfy { sends[$0] == 0 }, "\(sends)")
        let dim = powf(10, -20 / 20)
        #expect(Self.dims(c).enumerated().allSatisfy { abs($1 - ([2, 4].contains($0) ? dim : 1)) < 1e-6 }, "\(Self.dims(c))")
        #expect(Self.sends(c, 2) == [0, 0, 0, 0, 0, 0], "the other talkback sends nothing")

        // Two talkbacks on one output: both dims; a dim of 0 dB is none.
        c.send("/talkback/2/output/3", .int32(1))
        c.send("/talkback/2/dim_db", .float(-10))
        c.send("/talkback/2/talk", .int32(1))
        #expect(abs(Self.dims(c)[2] - powf(10, -30 / 20)) < 1e-6)
        c.send("/talkback/1/dim_db", .float(0))
        #expect(abs(Self.dims(c)[2] - powf(10, -10 / 20)) < 1e-6 && Self.dims(c)[4] == 1)

        c.send("/talkback/*/talk", .int32(0))
        #expect(Self.sends(c, 1) == [0, 0, 0, 0, 0, 0] && Self.dims(c) == [1, 1, 1, 1, 1, 1], "stopping ends it all")
    }

    @Test func aLatchedTalkFlipsOnEachTapAndIgnoresTheRelease() {
        let c = Self.controller()
        c.send("/talkback/1/latch", .int32(1))
        c.send("/talkback/1/talk", .float(1))
        c.send("/talkback/1/talk", .float(0))
        #expect(c.send("/talkback/1/talk").first?.messages.first?.arguments == [.int32(1)], "still talking after the release")
        c.send("/talkback/1/talk", .float(1))
        c.send("/talkback/1/talk", .float(0))
        #expect(c.send("/talkback/1/talk").first?.messages.first?.arguments == [.int32(0)], "the next tap stopped it")
        // Unlatched, it talks while held.
        c.send("/talkback/1/latch", .int32(0))
        c.send("/talkback/1/talk", .float(1))
        #expect(c.send("/talkback/1/talk").first?.messages.first?.arguments == [.int32(1)])
        c.send("/talkback/1/talk", .float(0))
        #expect(c.send("/talkback/1/talk").first?.messages.first?.arguments == [.int32(0)])
    }

    @Test func badTalkbackInputIsRefusedAndChangesNothing() {
        let c = Self.controller()
        let before = c.scene
        #expect(errorReason(c.send("/talkback/9/talk", .int32(1))) == "talkback 9 out of range (1-2)")
        #expect(errorReason(c.send("/talkback/1/output/99", .int32(1))) == "output 99 out of range (1-6)")
        #expect(errorReason(c.send("/talkback/1/output/2", .int32(3))) != nil, "a destination is 0 or 1")
        #expect(errorReason(c.send("/talkback/1/dim_db", .string("lots"))) != nil)
        #expect(c.scene == before)
        #expect(Self.sends(c, 1) == [0, 0, 0, 0, 0, 0])
    }

    @Test func aRecallNeverChangesTalkOrDestinationsAndTheStateFileKeepsAllButTalk() throws {
        let c = Self.controller()
        c.send("/preset/save", .string("plain"))
        c.send("/talkback/1/output/2", .int32(1))
        c.send("/talkback/1/name", .string("Monitor world"))
        c.send("/talkback/1/latch", .int32(1))
        c.send("/talkback/1/talk", .int32(1))
        c.send("/preset/recall", .string("plain"), .float(0))
        #expect(c.send("/talkback/1/talk").first?.messages.first?.arguments == [.int32(1)], "a recall never stops a talk")
        #expect(c.send("/talkback/1/output/2").first?.messages.first?.arguments == [.int32(1)])
        #expect(Self.sends(c, 1)[1] == 1, "still heard")

        let text = String(decoding: RigState(scene: c.stateNow().scene).encoded(catalogue: Catalogue()), as: UTF8.self)
        #expect(text.contains("\"talkbacks\": 2") && text.contains("\"output\": [2]") && text.contains("Monitor world"), "\(text)")
        #expect(!text.contains("\"talk\""), "a talk is kept nowhere: \(text)")
        let (read, skipped) = try RigState.read(Data(text.utf8), file: "state.json", catalogue: Catalogue())
        #expect(skipped.isEmpty)
        let restarted = Self.controller(state: read)
        #expect(restarted.send("/talkback/1/talk").first?.messages.first?.arguments == [.int32(0)], "a restart comes back not talking")
        #expect(restarted.send("/talkback/1/latch").first?.messages.first?.arguments == [.int32(1)])
        #expect(restarted.send("/talkback/1/output/2").first?.messages.first?.arguments == [.int32(1)])
        #expect(Self.sends(restarted, 1) == [0, 0, 0, 0, 0, 0])
    }
}

/// What a talkback keeps through the rig's own changes (found in review):
/// its destinations through a resize, its settings through `serve --scene`,
/// none of it when `serve --talkbacks 0` is given, and a level's fade.
@Suite struct TalkbackKeepingTests {
    @Test func aDestinationGoneWithItsOutputDoesNotComeBackWithIt() {
        let c = TalkbackTests.controller()
        c.send("/talkback/1/output/6", .int32(1))
        c.send("/talkback/1/output/2", .int32(1))
        #expect(errorReason(c.send("/rig/outputs", .int32(4))) == nil)
        #expect(c.scene.outputCount == 4)
        #expect(errorReason(c.send("/rig/outputs", .int32(6))) == nil)
        #expect(c.send("/talkback/1/output/6").first?.messages.first?.arguments == [.int32(0)])
        #expect(c.send("/talkback/1/output/2").first?.messages.first?.arguments == [.int32(1)], "the others stay")
    }

    @Test func aPresetPutOnTheRigKeepsItsTalkbacksAndNoTalkbacksMeansNone() throws {
        let catalogue = Catalogue()
        var live = catalogue.scene([.source: 2, .output: 4, .talkback: 2])
        catalogue.parameters[try #require(catalogue.number(.talkbackOutput, ""))]
            .set(&live, .talkbackOutput(talkback: 2, output: 3), .toggle(true))
        live.banks["talkback"]?.set(2, "name", .text("Monitor world"))
        // A preset holds nothing of the talkbacks (`serve --scene`).
        let preset = try PresetCoding.decode(PresetCoding.encode(Preset(name: "p", scene: live), catalogue: catalogue),
                                             file: "p.json", catalogue: catalogue).scene
        #expect((preset.banks["talkback"]?.count ?? 0) == 0)
        let kept = catalogue.keepingRig(of: live, in: preset)
        #expect(kept.banks["talkback"] == live.banks["talkback"], "the rig's talkbacks kept")

        // `serve --talkbacks 0` with a state that has two: none.
        let none = catalogue.scene([.source: 2, .output: 4, .talkback: 0])
        let (fitted, _) = RigState(scene: live).fitted(inputs: 2, outputs: 4, banks: none.banks, catalogue: catalogue)
        #expect(fitted.scene.banks["talkback"]?.count == 0)
    }

    @Test func aLevelSentWithAFadeMovesTheSendsOverItAndTheRestOverTheSmoothing() {
        let c = TalkbackTests.controller()
        let p = c.mixer.parameters
        c.send("/talkback/1/output/3", .int32(1))
        c.send("/talkback/1/talk", .int32(1))
        c.mixer.drainQueue()
        c.send("/talkback/1/db", .float(-12), .float(2))
        c.mixer.drainQueue()
        let send = c.mixer.offlineKernel.pointee.ramp(p.talkSend(1, 3))
        #expect(abs(send.targetValue - powf(10, -12 / 20)) < 1e-5)
        #expect(send.remaining > 48_000, "over the 2 s fade: \(send.remaining) samples left")
        c.send("/talkback/1/talk", .int32(0))
        c.mixer.drainQueue()
        let dim = c.mixer.offlineKernel.pointee.ramp(p.talkDim(3))
        #expect(dim.targetValue == 1 && dim.remaining <= 960, "the dim over the smoothing: \(dim.remaining)")
    }
}
