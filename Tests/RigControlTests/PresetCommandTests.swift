import Delivery
import Foundation
import Logging
import MixCore
import SceneModel
import OSC
import Presets
@testable import RigControl
import Testing

private func strings(_ packets: [OSCPacket]) -> [String] {
    packets.compactMap { packet -> [String]? in
        guard case .message(let m) = packet else { return nil }
        return [m.address] + m.arguments.map(\.description)
    }.flatMap { $0 }
}

/// Recalls `name` with the queue empty and the rate at 48 kHz; the number of
/// changes the recall queued.
private func queuedByRecall(_ c: Controller, _ name: String, fade: Float) -> Int {
    c.mixer.drainQueue()
    c.mixer.setSampleRate(48_000)
    c.send("/preset/recall", .string(name), .float(fade))
    return c.mixer.queuedChanges
}

@Suite struct PresetCommandTests {
    @Test func saveChangeEverythingRecallRestoresEveryParameter() {
        let c = makeController()
        c.send("/source/1/volume", .float(0.5))
        c.send("/source/2/pan", .float(-0.3))
        c.send("/source/3/mute", .int32(1))
        c.send("/source/4/solo", .int32(1))
        c.send("/source/1/name", .string("Kick"))
        c.send("/matrix/2/3", .float(0.7))
        c.send("/output/2/volume", .float(1.5))
        c.send("/output/4/mute", .int32(1))
        c.send("/output/1/name", .string("Main L"))
        c.send("/master/db", .float(-3))
        let saved = c.scene
        #expect(strings(c.send("/preset/save", .string("show 1"), .string("opening"))) == ["/preset/saved", "show 1"])

        c.send("/source/*/volume", .float(2))
        c.send("/source/*/pan", .float(1))
        c.send("/source/*/mute", .int32(0))
        c.send("/source/*/solo", .int32(0))
        c.send("/source/1/name", .string("x"))
        c.send("/matrix/clear")
        c.send("/output/*/volume", .float(0))
        c.send("/output/*/mute", .int32(0))
        c.send("/output/1/name", .string("y"))
        c.send("/master/mute", .int32(1))
        #expect(c.scene != saved)
        #expect(strings(c.send("/preset/current")) == ["/preset/current", "show 1", "1"])

        #expect(strings(c.send("/preset/recall", .string("show 1"), .float(0))) == ["/preset/recalled", "show 1", "0.0"])
        #expect(c.scene == saved)
        #expect(strings(c.send("/preset/current")) == ["/preset/current", "show 1", "0"])
    }

    @Test func aRecallStartsEveryRampInOneBatchWithTheFade() {
        let c = makeController()
        c.send("/preset/save", .string("a"))
        c.send("/matrix/1/1", .float(0))
        c.send("/source/2/pan", .float(1))
        #expect(queuedByRecall(c, "a", fade: 2) == 2)
        c.mixer.drainQueue()
        let p = c.mixer.parameters
        #expect(c.mixer.offlineKernel.pointee.ramp(p.crosspoint(1, 1)).remaining == 96_000)
        #expect(c.mixer.offlineKernel.pointee.ramp(p.sourcePan(2)).remaining == 96_000)
    }

    @Test func aRecallMovesExactlyTheCrosspointsThatDiffer() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("xp-\(UUID().uuidString)")
        let c = makeController(inputs: 8, outputs: 8, presets: directory)
        var scene = Scene(inputs: 8, outputs: 8)
        for n in 1...8 {
            for m in 1...8 { scene.crosspoints[n, m] = Float(n * 8 + m) / 100 }
        }
        scene.crosspoints[8, 8] = -0.0 // the same as the live 0: nothing moves, the live value stays +0
        try PresetStore(directory: directory).save(Preset(name: "dense", scene: scene))
        c.send("/matrix/8/8", .float(0))
        #expect(queuedByRecall(c, "dense", fade: 1) == 63)
        c.mixer.drainQueue()
        #expect(c.scene.crosspoints[8, 8].sign == .plus)
        var expected = scene.crosspoints
        expected[8, 8] = 0
        #expect(c.scene.crosspoints == expected)
        let p = c.mixer.parameters
        #expect(c.mixer.offlineKernel.pointee.ramp(p.crosspoint(3, 5)).targetValue == Float(29) / 100)
        #expect(c.mixer.offlineKernel.pointee.ramp(p.crosspoint(3, 5)).remaining == 48_000)

        c.send("/matrix/2/7", .float(4))
        c.send("/matrix/5/1", .float(0))
        #expect(queuedByRecall(c, "dense", fade: 0.5) == 2, "only the two crosspoints changed since")
        c.mixer.drainQueue()
        #expect(c.mixer.offlineKernel.pointee.ramp(p.crosspoint(2, 7)).targetValue == Float(23) / 100)
        #expect(c.mixer.offlineKernel.pointee.ramp(p.crosspoint(5, 1)).targetValue == Float(41) / 100)
        #expect(c.scene.crosspoints == expected)

        #expect(queuedByRecall(c, "dense", fade: 0.5) == 0, "nothing differs")
    }

    @Test func theFadeComesFromTheMessageElseTheFileElseTheSmoothing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("xp-\(UUID().uuidString)")
        let c = makeController(presets: directory)
        var preset = Preset(name: "slow", fade: 3, scene: Scene(inputs: 4, outputs: 4))
        preset.scene.crosspoints[1, 1] = 0
        try PresetStore(directory: directory).save(preset)
        #expect(strings(c.send("/preset/recall", .string("slow"))) == ["/preset/recalled", "slow", "3.0"])
        #expect(strings(c.send("/preset/recall", .string("slow"), .float(1))) == ["/preset/recalled", "slow", "1.0"])
        c.send("/preset/save", .string("plain"))
        #expect(strings(c.send("/preset/recall", .string("plain"))) == ["/preset/recalled", "plain", "0.02"])
    }

    @Test func undoReturnsToTheSceneBeforeTheRecallAndSafesHold() {
        let c = makeController()
        c.send("/preset/save", .string("flat"))
        c.send("/source/1/volume", .float(0.25))
        c.send("/source/2/volume", .float(0.5))
        c.send("/master/volume", .float(2))
        let live = c.scene
        c.send("/safe/source/2", .int32(1))
        c.send("/safe/master", .float(1))
        #expect(strings(c.send("/safe/source/2")) == ["/safe/source/2", "1"])
        c.send("/preset/recall", .string("flat"), .float(0))
        #expect(c.scene.sources[0].volume == 1, "recalled")
        #expect(c.scene.sources[1].volume == 0.5, "source 2 is safe")
        #expect(c.scene.master.volume == 2, "master is safe")
        // Back to the live scene, which was "flat" modified: at once (fade 0), pressed.
        #expect(strings(c.send("/preset/undo", .float(0), .float(1))) == ["/preset/undone", "flat"])
        #expect(c.scene == live)
        #expect(strings(c.send("/preset/current")) == ["/preset/current", "flat", "1"])
        #expect(errorReason(c.send("/preset/undo", .string("x"))) != nil)
    }

    @Test func scopeLimitsWhatARecallChanges() {
        let c = makeController()
        c.send("/preset/save", .string("flat"))
        c.send("/source/1/volume", .float(0.25))
        c.send("/matrix/1/2", .float(1))
        c.send("/output/1/mute", .int32(1))
        c.send("/preset/recall", .string("flat"), .float(0), .string("matrix"))
        #expect(c.scene.crosspoints[1, 2] == 0)
        #expect(c.scene.sources[0].volume == 0.25 && c.scene.outputs[0].mute)
        c.send("/preset/recall", .string("flat"), .string("sources,outputs"))
        #expect(c.scene.sources[0].volume == 1 && !c.scene.outputs[0].mute)
        #expect(errorReason(c.send("/preset/recall", .string("flat"), .string("everything")))?.hasPrefix("unknown scope") == true)
    }

    @Test func listDeleteRename() {
        let c = makeController()
        for name in ["b", "a 2", "C.v1"] { c.send("/preset/save", .string(name)) }
        #expect(strings(c.send("/preset/list")) == ["/preset/list", "a 2", "b", "C.v1"])
        #expect(strings(c.send("/preset/rename", .string("b"), .string("d"))) == ["/preset/renamed", "b", "d"])
        #expect(strings(c.send("/preset/delete", .string("a 2"))) == ["/preset/deleted", "a 2"])
        #expect(strings(c.send("/preset/list")) == ["/preset/list", "C.v1", "d"])
        #expect(errorReason(c.send("/preset/delete", .string("nope")))?.contains("no such preset") == true)
        #expect(errorReason(c.send("/preset/rename", .string("nope"), .string("x")))?.contains("no such preset") == true)
        #expect(errorReason(c.send("/preset/recall", .string("nope")))?.contains("no such preset") == true)
    }

    @Test(arguments: ["", ".hidden", "../escape", "a/b", "nul\u{0}byte", String(repeating: "x", count: 65), "semi;colon"])
    func badNamesAreRefusedAndNothingIsWritten(name: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("xp-\(UUID().uuidString)")
        let c = makeController(presets: directory)
        let before = c.snapshot()
        for command in ["/preset/save", "/preset/recall", "/preset/delete"] {
            #expect(errorReason(c.handle(.message(OSCMessage(command, [.string(name)])), from: peer)) != nil, "\(command) '\(name)'")
        }
        #expect(errorReason(c.send("/preset/rename", .string("ok"), .string(name))) != nil)
        #expect(c.snapshot() == before)
        let written = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        #expect(written.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory.deletingLastPathComponent().appendingPathComponent("escape.json").path))
    }

    @Test func aBrokenPresetIsAnErrorNamingFileAndFieldAndChangesNothing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("xp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let c = makeController(presets: directory)
        try Data(#"{"format": "crosspoint-preset", "version": 1, "channels": {"inputs": 4, "outputs": 4}, "sources": [{"pan": "left"}]}"#.utf8)
            .write(to: directory.appendingPathComponent("bad.json"))
        try Data("{ not json".utf8).write(to: directory.appendingPathComponent("corrupt.json"))
        c.send("/preset/save", .string("good"))
        let before = c.snapshot()
        let reason = try #require(errorReason(c.send("/preset/recall", .string("bad"))))
        #expect(reason.hasSuffix("bad.json: sources[0].pan: expected a number from -1 to 1, got a string"), "\(reason)")
        #expect(try #require(errorReason(c.send("/preset/recall", .string("corrupt")))).contains("corrupt.json: not valid JSON"))
        #expect(c.snapshot() == before)
        #expect(strings(c.send("/preset/recall", .string("good"))).first == "/preset/recalled")
    }

    @Test func aHandEditedPresetIsReadAtItsNextRecall() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("xp-\(UUID().uuidString)")
        let c = makeController(presets: directory)
        c.send("/preset/save", .string("live"))
        c.send("/preset/recall", .string("live"), .float(0))
        let file = directory.appendingPathComponent("live.json")
        let edited = try String(contentsOf: file, encoding: .utf8)
            .replacingOccurrences(of: #"{ "in": 1, "out": 1, "volume": 1 }"#, with: #"{ "in": 1, "out": 1, "volume": 0.5 }"#)
        try edited.write(to: file, atomically: true, encoding: .utf8)
        c.send("/preset/recall", .string("live"), .float(0))
        #expect(c.scene.crosspoints[1, 1] == 0.5)
    }

    @Test func aLargerPresetAppliesWhatFitsAndSaysWhatItSkipped() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("xp-\(UUID().uuidString)")
        var big = Scene(inputs: 6, outputs: 6)
        big.sources[0].volume = 0.5
        big.crosspoints[6, 1] = 1
        try PresetStore(directory: directory).save(Preset(name: "big", scene: big))
        let c = makeController(presets: directory)
        let replies = strings(c.send("/preset/recall", .string("big"), .float(0)))
        #expect(replies.contains("/preset/skipped"))
        #expect(replies.last == "sources 5-6; outputs 5-6; 3 crosspoints beyond the rig")
        #expect(c.scene.sources[0].volume == 0.5 && c.scene.crosspoints[4, 4] == 1)
    }
}

/// The preset state is feedback: subscribers are sent `/preset/list` when a
/// preset is saved, deleted or renamed, and `/preset/current` when the
/// current preset or its "modified" mark changes, whoever did it.
@Suite struct PresetFeedbackTests {
    @Test func subscribersAreToldOfTheListAndTheCurrentPreset() {
        let hub = FeedbackHub(logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
                              send: { _, _ in })
        let c = makeController(feedback: hub)
        let tablet = OSCPeer(address: SocketAddress.resolve(host: "127.0.0.1", port: 9100)!)
        c.handle(.message(OSCMessage("/subscribe")), from: tablet)
        c.waitForFullStates()
        // Each look a minute later than the last: past coalescing, and the pace.
        var clock = ContinuousClock.now
        func sent() -> [String: [OSCArgument]] {
            clock += .seconds(60)
            var seen: [String: [OSCArgument]] = [:]
            for message in hub.due(at: clock).flatMap({ $0.1.flatMap { $0.messages } }) {
                seen[message.address] = message.arguments
            }
            return seen
        }
        _ = sent()   // the full state
        c.send("/preset/save", .string("verse"))
        var seen = sent()
        #expect(seen["/preset/list"] == [.string("verse")])
        #expect(seen["/preset/current"] == [.string("verse"), .int32(0)])
        c.send("/source/1/volume", .float(0.5))
        seen = sent()
        #expect(seen["/preset/current"] == [.string("verse"), .int32(1)], "modified since")
        #expect(seen["/preset/list"] == nil, "the list has not changed")
        c.send("/source/1/volume", .float(0.25))
        #expect(sent()["/preset/current"] == nil, "still modified: nothing new to tell")
        c.send("/preset/rename", .string("verse"), .string("chorus"))
        #expect(sent()["/preset/list"] == [.string("chorus")])
    }
}
