import Catalogue
import ControlPage
import Delivery
import Foundation
import Logging
import MixCore
import OSC
import Presets
import RigControl
import SceneModel
import Testing

/// A kind of strip is described once (issue 33): this test's catalogue adds
/// a "test bus", with a name and a level, in this file alone, and the rig
/// addresses it, answers queries about it, feeds it back, saves and recalls
/// it in presets and the state file, prints and compares it, lists it in
/// OSCQuery and describes it to the page, with no other code.
@Suite struct StripKindProofTests {
    static let bus = StripKind.bank("testbus", noun: "test bus", plural: "test buses", field: "testbuses", counts: 0...16)
    static let catalogue = Catalogue(adding: [(bus, [
        .bank(bus.strip, "name", .text(maxLength: 64), "name", default: .text("bus_{n}"),
              display: .init(.text(placeholder: "bus {n}"), "{Strip} name")),
        .bank(bus.strip, "volume", .level, "level", default: .number(1), display: .init(.fader, "{Strip} level")),
    ])])
    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A 2x2 rig with three test buses, its presets in a fresh directory, with feedback.
    static func rig() -> (Controller, FeedbackHub, PresetStore) {
        let scene = catalogue.scene([.source: 2, .output: 2, bus.strip: 3])
        let store = PresetStore(directory: FileManager.default.temporaryDirectory
            .appendingPathComponent("crosspoint-kind-\(UUID().uuidString)"), catalogue: catalogue)
        let hub = FeedbackHub(logger: quiet, send: { _, _ in })
        let controller = Controller(
            state: RigState(scene: scene),
            mixer: Mixer(scene: scene, catalogue: catalogue, panLaw: .balance, layout: OutputLayout(outputs: 2)),
            catalogue: catalogue, store: store, smoothingSeconds: 0.02, logger: quiet,
            subscriptions: Subscriptions(feedback: hub))
        return (controller, hub, store)
    }

    static let tablet = OSCPeer(address: SocketAddress.resolve(host: "127.0.0.1", port: 9300)!)

    @discardableResult
    static func send(_ c: Controller, _ address: String, _ arguments: OSCArgument...) -> [OSCMessage] {
        let replies = c.handle(.message(OSCMessage(address, arguments)), from: tablet)
        c.waitForPresetWrites()
        c.waitForFullStates()
        return replies.flatMap(\.messages)
    }

    /// What feedback sends from now on, by address (the last value of each).
    static func fedBack(_ hub: FeedbackHub, at clock: inout ContinuousClock.Instant) -> [String: [OSCArgument]] {
        clock += .seconds(60)
        var seen: [String: [OSCArgument]] = [:]
        for message in hub.due(at: clock).flatMap({ $0.1.flatMap(\.messages) }) { seen[message.address] = message.arguments }
        return seen
    }

    /// The reason of an `/error` reply, if the first reply is one.
    static func errorReason(_ replies: [OSCMessage]) -> String? {
        guard let m = replies.first, m.address == "/error", m.arguments.count == 2,
              case .string(let reason) = m.arguments[1] else { return nil }
        return reason
    }

    @Test func aKindAddedHereIsAddressedQueriedAndFedBack() throws {
        let (c, hub, _) = Self.rig()
        var clock = ContinuousClock.now
        // Another client's subscription: a sender is not sent its own value back.
        c.handle(.message(OSCMessage("/subscribe")), from: OSCPeer(address: SocketAddress.resolve(host: "127.0.0.1", port: 9301)!))
        c.waitForFullStates()
        let full = Self.fedBack(hub, at: &clock)
        #expect(full["/testbus/3/name"] == [.string("bus_3")], "the full state has every bus")
        #expect(full["/testbus/1/volume"] == [.float(1)])

        Self.send(c, "/testbus/2/volume", .float(0.5))
        let changed = Self.fedBack(hub, at: &clock)
        #expect(changed["/testbus/2/volume"] == [.float(0.5)], "fed back: \(changed)")
        #expect(changed["/testbus/2/db"].map { abs(($0.first?.number ?? 0) + 6.02) < 0.01 } == true, "in dB too")
        #expect(Self.send(c, "/testbus/2/volume").first?.arguments == [.float(0.5)], "a query answers it")

        // Patterns reach it as they reach any strip; a number beyond the rig is said so.
        Self.send(c, "/testbus/*/name", .string("FX"))
        #expect(Self.send(c, "/testbus/3/name").first?.arguments == [.string("FX")])
        #expect(Self.errorReason(Self.send(c, "/testbus/4/volume", .float(1))) == "test bus 4 out of range (1-3)")
        #expect(Self.errorReason(Self.send(c, "/testbus/1/volume", .string("loud"))) != nil, "checked as a level")
    }

    @Test func aKindAddedHereIsSavedRecalledPrintedAndKeptInTheStateFile() throws {
        let (c, _, store) = Self.rig()
        Self.send(c, "/testbus/2/volume", .float(0.5))
        Self.send(c, "/testbus/1/name", .string("reverb"))
        Self.send(c, "/preset/save", .string("buses"))
        let text = try String(contentsOf: store.directory.appendingPathComponent("buses.json"), encoding: .utf8)
        #expect(text.contains("\"testbuses\": 3"), "its count in channels: \(text)")
        #expect(text.contains("\"name\": \"reverb\""), "\(text)")

        Self.send(c, "/testbus/2/volume", .float(1))
        Self.send(c, "/testbus/1/name", .string("dry"))
        Self.send(c, "/preset/recall", .string("buses"), .float(0))
        #expect(Self.send(c, "/testbus/2/volume").first?.arguments == [.float(0.5)], "recalled")
        #expect(Self.send(c, "/testbus/1/name").first?.arguments == [.string("reverb")])

        let preset = try store.load("buses")
        let table = SceneTable(preset: preset, catalogue: Self.catalogue).text
        #expect(table.contains("testbus") && table.contains("reverb") && table.contains("-6.0"), "\(table)")
        var other = preset.scene
        other.banks["testbus"]?.set(2, "volume", .number(1))
        let lines = SceneDifference(from: preset.scene, to: other, catalogue: Self.catalogue).lines
        #expect(lines == ["testbus 2 level: -6.0 -> +0.0"])

        let state = RigState(scene: c.stateNow().scene)
        let (read, skipped) = try RigState.read(state.encoded(catalogue: Self.catalogue), file: "state.json",
                                                catalogue: Self.catalogue)
        #expect(skipped.isEmpty)
        #expect(read.scene == state.scene, "the state file keeps every bus")
        // A file from before the kind reads as a rig without it.
        let older = try PresetCoding.decode(PresetCoding.encode(Preset(name: "old", scene: Scene(inputs: 2, outputs: 2))),
                                            file: "old.json", catalogue: Self.catalogue)
        #expect((older.scene.banks["testbus"]?.count ?? 0) == 0)
    }

    /// `serve` sets its count by its own flag, `--{field} N`, within the
    /// limits it describes (`Catalogue.bankCounts`, the arguments serve does
    /// not declare; `StartupTests` runs the binary with others).
    @Test func aKindAddedHereIsCountedByItsFlag() throws {
        let counts = try Self.catalogue.bankCounts(["--testbuses", "3"])
        #expect(counts == [Self.bus.strip: 3])
        #expect(try Self.catalogue.bankCounts(["--testbuses=0"]) == [Self.bus.strip: 0])
        #expect(try Self.catalogue.bankCounts([]).isEmpty, "none unless named")
        #expect(try Self.catalogue.bankCounts(["--testbuses", "2", "--"]) == [Self.bus.strip: 2], "`--` ends the flags")
        #expect(Self.catalogue.scene(counts).banks["testbus"]?.count == 3)
        for (arguments, reason) in [(["--testbuses", "17"], "--testbuses must be 0-16 (got 17)"),
                                    (["--testbuses"], "--testbuses takes a number of test buses"),
                                    (["--testbuses", "x"], "--testbuses takes a number of test buses"),
                                    (["--inputs", "3"], "Unknown option '--inputs'"), (["3"], "Unexpected argument '3'"),
                                    (["--", "--testbuses", "2"], "Unexpected argument '--testbuses'")] {
            #expect(throws: Catalogue.CountError.self, "\(arguments)") { try Self.catalogue.bankCounts(arguments) }
            do {
                _ = try Self.catalogue.bankCounts(arguments)
            } catch {
                #expect(error.reason == reason)
            }
        }
    }

    /// Its recall safe comes with it: `/safe/testbus/{n}` keeps a bus's live
    /// values through recalls and undo, a pattern reaches it, and the state
    /// file keeps it under the kind's field.
    @Test func aKindAddedHereHasARecallSafe() throws {
        let (c, _, _) = Self.rig()
        Self.send(c, "/preset/save", .string("flat"))
        Self.send(c, "/testbus/2/volume", .float(0.5))
        Self.send(c, "/testbus/3/volume", .float(0.25))
        Self.send(c, "/safe/testbus/2", .int32(1))
        #expect(Self.send(c, "/safe/testbus/2").first?.arguments == [.int32(1)], "a query answers it")
        Self.send(c, "/preset/recall", .string("flat"), .float(0))
        #expect(Self.send(c, "/testbus/2/volume").first?.arguments == [.float(0.5)], "the safe bus kept its level")
        #expect(Self.send(c, "/testbus/3/volume").first?.arguments == [.float(1)], "the others were recalled")
        Self.send(c, "/testbus/2/volume", .float(0.75))
        Self.send(c, "/preset/undo")
        #expect(Self.send(c, "/testbus/2/volume").first?.arguments == [.float(0.75)], "and kept it through undo")
        #expect(Self.send(c, "/testbus/3/volume").first?.arguments == [.float(0.25)], "undo took the others back")

        Self.send(c, "/safe/test*/[3-9]", .int32(1))
        #expect(Self.send(c, "/safe/testbus/3").first?.arguments == [.int32(1)], "a pattern reaches it")
        #expect(Self.errorReason(Self.send(c, "/safe/testbus/4", .int32(1))) == "test bus 4 out of range (1-3)")
        // A pattern for the kind reaches the kinds that have that strip (this
        // rig's sources and outputs stop at 2); a number none has is an error.
        Self.send(c, "/safe/testbus/3", .int32(0))
        #expect(Self.errorReason(Self.send(c, "/safe/*/3", .int32(1))) == nil)
        #expect(Self.send(c, "/safe/testbus/3").first?.arguments == [.int32(1)], "/safe/*/3 reached test bus 3")
        #expect(Self.errorReason(Self.send(c, "/safe/*/9", .int32(1))) == "source 9 out of range (1-2)")

        let text = String(decoding: RigState(scene: c.stateNow().scene, safes: c.stateNow().safes)
            .encoded(catalogue: Self.catalogue), as: UTF8.self)
        #expect(text.contains("\"testbuses\": [2, 3]"), "\(text)")
        let (read, skipped) = try RigState.read(Data(text.utf8), file: "state.json", catalogue: Self.catalogue)
        #expect(skipped.isEmpty && read.safes == c.stateNow().safes, "read back: \(skipped)")

        var described: [String: ParameterDescription] = [:]
        c.describeAddresses { described[$0.address] = $0 }
        #expect(described["/safe/testbus/3"]?.description == "Recall safe for test bus 3")
        #expect(PageDescription.json(Self.catalogue).contains("\"address\": \"/safe/testbus/{n}\""))
    }

    @Test func aKindAddedHereIsListedByOSCQueryAndDescribedToThePage() {
        let (c, _, _) = Self.rig()
        var described: [String: ParameterDescription] = [:]
        c.describeAddresses { described[$0.address] = $0 }
        #expect(described["/testbus/3/volume"]?.description.hasPrefix("Test bus 3 level") == true)
        #expect(described["/testbus/3/fader"] != nil && described["/testbus/1/name"] != nil)
        #expect(described["/testbus/4/volume"] == nil)

        let page = PageDescription.json(Self.catalogue)
        #expect(page.contains("\"testbus\": ["), "a section of its own")
        #expect(page.contains("\"address\": \"/testbus/{n}/fader\""), "\(page)")
        #expect(page.contains("\"Strip\": \"Test bus {n}\""), "titled as the rig titles it")
    }

    /// The page itself, in headless Chromium, given this catalogue's
    /// description with three test buses, draws them: a section headed by
    /// the kind's plural, linked from the status bar, a strip per bus with
    /// its name's field and its fader at their addresses, named by their
    /// titles. (The page's files as the rig serves them, from a plain HTTP
    /// server; no rig answers its WebSocket, and none is needed to draw a
    /// kind's strips: tools/page/kinds_check.py.)
    @Test func aKindAddedHereIsDrawnByThePage() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("crosspoint-kind-page-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("page")
        var files = ControlPage.files.mapValues(\.text)
        files[PageDescription.path] = PageDescription.json(Self.catalogue, counts: [Self.bus.strip: 3])
        for (path, text) in files {
            let file = page.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        let report = try Self.runCheck(["--dir", directory.path, "--kind", "testbus"])
        let drawn = try #require(report["drawn"] as? [String: Any], "\(report)")
        #expect(drawn["heading"] as? String == "Test buses" && drawn["link"] as? String == "Test buses", "\(drawn)")
        let strips = drawn["strips"] as? [[String: Any]] ?? []
        #expect(strips.map { $0["label"] as? String } == ["Test bus 1", "Test bus 2", "Test bus 3"], "\(strips)")
        let third = (strips.last?["controls"] as? [[String: Any]] ?? []).map {
            [$0["address"] as? String ?? "", $0["role"] as? String ?? "", $0["name"] as? String ?? ""]
        }
        #expect(third.contains(["/testbus/3/fader", "slider", "Test bus 3 level"]), "\(third)")
        #expect(third.contains { $0[0] == "/testbus/3/name" }, "\(third)")
    }

    /// Runs tools/page/kinds_check.py and reads its one JSON line; the
    /// script ends the browser it starts, by PID, and is itself ended here.
    static func runCheck(_ arguments: [String]) throws -> [String: Any] {
        let tools = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("tools/page")
        let process = Process()
        // The python3 on the PATH, as the page tests run theirs (the one with Selenium).
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", tools.appendingPathComponent("kinds_check.py").path] + arguments
        process.currentDirectoryURL = tools
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? ["output": line]
    }
}
