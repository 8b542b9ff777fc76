import Foundation
import Testing

/// The control page (Sources/ControlPage/page) in a real headless Chromium,
/// loaded from the real `crosspoint serve` and talking to it over its
/// WebSocket: `tools/page/page_check.py` drives the page by scenario
/// (Selenium) and prints what it saw as JSON; these tests assert on that and
/// on the rig itself, over OSC and on recorded audio. They need `chromium`,
/// `chromium-driver` and Selenium (`scripts/setup`).
extension Integration {
@Suite struct PageTests {
    typealias A = SignalAnalysis

    /// A page driver in the package's tools/page (page_check.py by default).
    static func tool(_ name: String = "page_check.py") -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("tools/page/\(name)").path
    }

    /// A decoded JSON object from the page driver, with typed lookups by
    /// path (`page["sliders", "/source/1/fader", "now"]`).
    struct PageReport: CustomStringConvertible {
        let object: [String: Any]
        let description: String

        subscript(_ path: String...) -> Any? {
            var value: Any? = object
            for key in path { value = (value as? [String: Any])?[key] }
            return value is NSNull ? nil : value
        }

        func number(_ path: String...) -> Double? {
            var value: Any? = object
            for key in path { value = (value as? [String: Any])?[key] }
            return (value as? NSNumber)?.doubleValue
        }

        func string(_ path: String...) -> String? {
            var value: Any? = object
            for key in path { value = (value as? [String: Any])?[key] }
            return value as? String
        }

        func flag(_ path: String...) -> Bool {
            var value: Any? = object
            for key in path { value = (value as? [String: Any])?[key] }
            return (value as? Bool) ?? false
        }

        /// The entries of an object in the report (`sliders`, `cells`, …).
        func entries(_ key: String) -> [String: [String: Any]] {
            (object[key] as? [String: Any] ?? [:]).compactMapValues { $0 as? [String: Any] }
        }
    }

    /// Starts the driver for one scenario; the caller waits for it.
    static func startPage(_ scenario: String, rig: CrosspointRig, _ extra: [String] = [],
                          driver: String = "page_check.py") throws -> ChildProcess {
        try ChildProcess(executable: "python3",
                         arguments: [tool(driver), scenario, "--http-port", "\(rig.httpPort)", "--osc-port", "\(rig.oscPort)"]
                            + extra,
                         label: "\(driver) \(scenario)")
    }

    /// The driver's report: the last JSON line of its output, once it has ended well.
    static func report(of page: ChildProcess) async throws -> PageReport {
        let status = try await page.waitForExit(timeout: .seconds(150))
        guard status == .exited(0),
              let line = page.standardOutput.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
              let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw RigError("page_check ended \(status) without a report:\n\(page.diagnostics())")
        }
        return PageReport(object: object, description: String(line))
    }

    static func runPage(_ scenario: String, rig: CrosspointRig, _ extra: [String] = [],
                        driver: String = "page_check.py") async throws -> PageReport {
        let page = try startPage(scenario, rig: rig, extra, driver: driver)
        defer { page.terminate() }
        return try await report(of: page)
    }

    /// The rig's answer to a query of one address.
    static func query(_ rig: CrosspointRig, _ address: String) async throws -> OSCTestClient.Argument? {
        _ = try rig.osc.drain()
        try rig.osc.send(address)
        return try await rig.osc.waitFor(address: address, timeout: .seconds(5)).argument(0)
    }

    static func close(_ value: Double?, _ expected: Double, _ tolerance: Double = 1e-4) -> Bool {
        value.map { abs($0 - expected) <= tolerance } ?? false
    }

    @Test func thePageShowsTheRigsScene() async throws {
        try await withRig(inputs: 3, outputs: 2) { rig in
            try rig.osc.send("/source/1/name", .string("Kick"))
            try rig.osc.send("/output/2/name", .string("Monitor"))
            try rig.osc.send("/source/2/fader", .float(0.5))
            try rig.osc.send("/output/1/fader", .float(0.25))
            try rig.osc.send("/master/fader", .float(0.6))
            try rig.osc.send("/source/3/mute", .int32(1))
            try rig.osc.send("/source/3/pan", .float(-0.5))
            try rig.osc.send("/matrix/1/1", .float(0))
            try await rig.sendAndSettle("/matrix/2/2", .float(0.5))

            let page = try await Self.runPage("load", rig: rig)
            #expect(page.flag("loaded"), "\(page)")
            // The page lives within its own Content-Security-Policy.
            #expect((page["refused_by_policy"] as? [Any])?.isEmpty == true, "\(page["refused_by_policy"] ?? "no console")")
            #expect(page.string("connection") == "open")
            #expect(page.string("access") == "full")
            #expect(page.string("size") == "3x2")
            #expect(page.string("names", "/source/1/name") == "Kick")
            #expect(page.string("names", "/output/2/name") == "Monitor")
            let fader = page.entries("sliders")
            #expect(Self.close(page.number("sliders", "/source/1/fader", "now"), 0.75))
            #expect(page.string("sliders", "/source/1/fader", "text") == "0.0 dB")
            #expect(page.string("sliders", "/source/1/fader", "min") == "0")
            #expect(page.string("sliders", "/source/1/fader", "max") == "1")
            #expect(Self.close(page.number("sliders", "/source/2/fader", "now"), 0.5))
            #expect(page.string("sliders", "/source/2/fader", "text") == "-10.0 dB")
            #expect(Self.close(page.number("sliders", "/output/1/fader", "now"), 0.25))
            #expect(page.string("sliders", "/output/1/fader", "text") == "-30.0 dB")
            #expect(Self.close(page.number("sliders", "/master/fader", "now"), 0.6))
            #expect(Self.close(page.number("sliders", "/source/3/pan", "now"), -0.5))
            #expect(page.string("sliders", "/source/3/pan", "min") == "-1")
            #expect(fader.keys.filter { $0.hasSuffix("/fader") && !$0.hasPrefix("/dca/") && !$0.hasPrefix("/talkback/")
                                        && !$0.hasPrefix("/listen/") }.count == 3 + 2 + 1, "\(fader.keys.sorted())")
            #expect(fader["/listen/fader"] != nil, "the listen's level")
            #expect(fader.keys.filter { $0.hasPrefix("/dca/") }.count == 8, "a fader per DCA (the default 8)")
            #expect(fader.keys.filter { $0.hasPrefix("/talkback/") }.count == 2, "a fader per talkback (the default 2)")
            #expect(fader.values.allSatisfy { $0["tabindex"] as? String == "0" })
            #expect(page.string("switches", "/source/3/mute", "checked") == "true")
            #expect(page.string("switches", "/source/2/mute", "checked") == "false")
            #expect(page.string("switches", "/safe/source/1", "checked") == "false")
            let cells = page.entries("cells")
            #expect(cells.count == 6, "\(cells.keys.sorted())")
            #expect(page.string("cells", "/matrix/1/1", "pressed") == "false")
            #expect(page.string("cells", "/matrix/2/2", "pressed") == "true")
            #expect(page.string("cells", "/matrix/2/2", "label")?.contains("Monitor") == true)
            #expect(page.string("cells", "/matrix/2/2", "label")?.contains("-6.0 dB") == true)
            #expect(page.string("status", "sample-rate") == "\(rig.sampleRate / 1000) kHz")
            #expect(page.string("status", "connection") == "connected")
            #expect((page["console_errors"] as? [Any])?.isEmpty == true, "\(page)")
        }
    }

    @Test func aKeyboardChangeOnAFaderReachesTheRigAndTheSound() async throws {
        try await withRig { rig in
            rig.playSine(input: 1, frequency: 1000, amplitude: 0.5)
            let before = try await rig.record(seconds: 0.2)
            let unity = A.fitSine(before.channels[0], frequency: 1000, sampleRate: Double(rig.sampleRate),
                                  in: 2400..<9600)
            #expect(abs(unity.amplitude - 0.5) < 1e-4, "out_1 before: \(unity.amplitude)")

            // Five steps down (0.01 each) and two pages (0.1 each): 0.75 → 0.5, -10 dB.
            let page = try await Self.runPage("keyboard-fader", rig: rig)
            #expect(page.flag("loaded"), "\(page)")
            #expect(Self.close(page.number("before"), 0.75))
            #expect(Self.close(page.number("after_arrows"), 0.70))
            #expect(Self.close(page.number("after"), 0.5))
            #expect(page.string("valuetext") == "-10.0 dB")
            #expect(try await Self.query(rig, "/source/1/fader")?.floatValue.map { abs($0 - 0.5) < 1e-6 } == true)
            #expect(try await Self.query(rig, "/source/1/db")?.floatValue.map { abs($0 + 10) < 1e-4 } == true)

            try await rig.ping()
            try await Task.sleep(for: .milliseconds(50)) // past the 20 ms ramp
            let after = try await rig.record(seconds: 0.2)
            let fit = A.fitSine(after.channels[0], frequency: 1000, sampleRate: Double(rig.sampleRate), in: 2400..<9600)
            let expected: Float = 0.5 * powf(10, -10 / 20)
            #expect(abs(fit.amplitude - expected) < 1e-3 * expected, "out_1 after: \(fit.amplitude), expected \(expected)")
        }
    }

    @Test func anOSCChangeFromAnotherClientReachesThePage() async throws {
        try await withRig { rig in
            // The driver's own UDP socket is the other client: /source/2/fader 0.3, /source/2/mute 1.
            let page = try await Self.runPage("osc-to-page", rig: rig)
            #expect(page.flag("loaded"), "\(page)")
            #expect(Self.close(page.number("before"), 0.75))
            #expect(page.flag("seen"), "\(page)")
            #expect(Self.close(page.number("after"), 0.3))
            #expect(page.string("valuetext") == "-26.0 dB")
            #expect(page.string("mute") == "true")
            #expect(try await Self.query(rig, "/source/2/fader")?.floatValue.map { abs($0 - 0.3) < 1e-6 } == true)
        }
    }

    @Test func aTapOnAMatrixCellTogglesTheCrosspoint() async throws {
        try await withRig { rig in
            let page = try await Self.runPage("matrix-tap", rig: rig)
            #expect(page.flag("loaded"), "\(page)")
            #expect(page.string("before") == "false")
            #expect(page.string("after") == "true")
            #expect(page.number("rig") == 1, "unity the first time: \(page)")
            #expect(page.string("label")?.contains("0.0 dB") == true)
            #expect(page.string("again") == "false", "Space toggles it back")
            #expect(page.number("rig_again") == 0)
            #expect(try await Self.query(rig, "/matrix/1/2") == .float(0))
            #expect(try await Self.query(rig, "/matrix/1/1") == .float(1), "the other cells unchanged")
        }
    }

    @Test func aPresetButtonRecallsThePreset() async throws {
        try await withRig { rig in
            try rig.osc.send("/source/1/fader", .float(0.5))
            try rig.osc.send("/preset/save", .string("scene-a"))
            _ = try await rig.osc.waitFor(address: "/preset/saved", timeout: .seconds(5))
            try await rig.sendAndSettle("/source/1/fader", .float(0.75))

            let page = try await Self.runPage("preset-recall", rig: rig, ["--preset", "scene-a", "--expect", "0.5"])
            #expect(page.flag("loaded"), "\(page)")
            #expect(page.flag("listed"), "a button data-address=/preset/recall/scene-a")
            #expect(Self.close(page.number("before"), 0.75))
            #expect(page.flag("seen"))
            #expect(Self.close(page.number("after"), 0.5))
            #expect(page.string("current") == "scene-a")
            #expect(try await Self.query(rig, "/source/1/fader")?.floatValue.map { abs($0 - 0.5) < 1e-6 } == true)
            #expect(try await Self.query(rig, "/preset/current") == .string("scene-a"))
        }
    }

    @Test func twoPagesStayInSync() async throws {
        try await withRig { rig in
            let page = try await Self.runPage("two-pages", rig: rig)
            #expect(page.flag("loaded"), "\(page)")
            #expect(Self.close(page.number("moved"), 0.65), "Page Down on page A")
            #expect(page.flag("b_saw"))
            #expect(Self.close(page.number("b_fader"), 0.65))
            #expect(page.string("b_mute") == "true", "a tap on page B")
            #expect(page.flag("a_saw"))
            #expect(page.string("a_mute") == "true")
            #expect(try await Self.query(rig, "/source/2/mute")?.intValue == 1)
            #expect(try await Self.query(rig, "/source/1/fader")?.floatValue.map { abs($0 - 0.65) < 1e-6 } == true)
        }
    }

    @Test func thePageReconnectsAndShowsTheWholeStateAfterTheServerRestarts() async throws {
        try await withRig { rig in
            try rig.osc.send("/source/1/fader", .float(0.25))
            try rig.osc.send("/preset/save", .string("after-restart"))
            _ = try await rig.osc.waitFor(address: "/preset/saved", timeout: .seconds(5))
            try await rig.sendAndSettle("/source/1/fader", .float(0.75))

            let signal = rig.directory.appendingPathComponent("continue")
            let page = try Self.startPage("reconnect", rig: rig, ["--continue-file", signal.path, "--expect", "0.25"])
            defer { page.terminate() }
            try await page.waitForOutput(containing: "\"phase\": \"open\"", in: [.standardOutput], timeout: .seconds(90))

            // The same serve again on the same ports, from the preset: the
            // page holds 0.75 and only a full state on its new session shows 0.25.
            rig.crosspoint.terminate()
            let restarted = try ChildProcess(
                executable: CrosspointRig.binary,
                arguments: ["serve", "--jack-server", rig.jack.name, "--no-autostart",
                            "--osc-port", "\(rig.oscPort)", "--http-port", "\(rig.httpPort)",
                            "--inputs", "\(rig.inputs)", "--outputs", "\(rig.outputs)", "--scene", "after-restart"]
                    + CrosspointRig.fileArguments(rig.directory),
                label: "crosspoint serve (restarted)")
            defer { restarted.terminate() }
            try await restarted.waitForOutput(containing: "ready: OSC on UDP port", timeout: .seconds(20))
            FileManager.default.createFile(atPath: signal.path, contents: Data())

            let report = try await Self.report(of: page)
            #expect(page.standardOutput.contains("\"fader\": 0.75"), "before the restart: \(page.standardOutput)")
            #expect(report.flag("saw_closed"), "data-connection=closed while serve was away")
            #expect(report.flag("reopened"), "\(report)")
            #expect(report.flag("resynced"), "\(report)")
            #expect(report.string("connection") == "open")
            #expect(Self.close(report.number("sliders", "/source/1/fader", "now"), 0.25))
            #expect(report.string("sliders", "/source/1/fader", "text") == "-30.0 dB")
        }
    }

    /// A mouse drags /source/1/fader and holds it: the page sends touch 1 and
    /// the values; another client's 0.2 meanwhile does not pull the fader
    /// from under the pointer; after the release the page and the rig agree.
    @Test func aDraggedFaderIsNotPulledAwayByAnotherClient() async throws {
        try await withRig { rig in
            let page = try await Self.runPage("held-fader", rig: rig)
            #expect(page.flag("loaded"), "\(page)")
            #expect(Self.close(page.number("before"), 0.75))
            #expect(page.flag("held"), "data-held while the button is down: \(page)")
            let dragged = try #require(page.number("dragged"), "\(page)")
            #expect(dragged < 0.75 - 0.05 && dragged > 0, "60 px down moves the fader down: \(page)")
            #expect(Self.close(page.number("rig_dragged"), dragged, 1e-3), "the rig saw the drag: \(page)")
            #expect(Self.close(page.number("rig_other"), 0.2, 1e-3), "the other client's value reached the rig: \(page)")
            #expect(page.flag("marker"), "the page got the other client's next change: \(page)")
            #expect(page.flag("still_held"))
            #expect(Self.close(page.number("while_held"), dragged, 1e-4), "held at the dragged value, not 0.2: \(page)")
            #expect(page.flag("released"))
            #expect(page.flag("agree"), "page and rig agree after the release: \(page)")
            let rigValue = try #require(try await Self.query(rig, "/source/1/fader")?.floatValue)
            #expect(Self.close(page.number("after"), Double(rigValue), 1e-3), "page \(page), rig \(rigValue)")
            #expect(abs(rigValue - 0.75) > 0.01, "the rig moved from 0.75")
        }
    }

    /// A name with a tab pasted into source 1's name field: the rig refuses
    /// it; the page shows its reason beside the field for about 4 s, marks
    /// the field, and then shows the rig's unchanged name again.
    @Test func anErrorFromTheRigShowsBesideTheControlThatCausedIt() async throws {
        try await withRig { rig in
            let page = try await Self.runPage("error-note", rig: rig)
            #expect(page.flag("loaded"), "\(page)")
            #expect(page.string("before") == "in_1")
            #expect(page.string("rig_before") == "in_1")
            #expect(page.string("typed") == "Kick\tDrum", "the tab reached the field: \(page)")
            #expect(page.string("note", "text") == "name with a control character", "\(page)")
            #expect(page.string("note", "className") == "error-note", "beside the field, not in the status bar")
            #expect(page["note", "visible"] as? Bool == true)
            // Just below the field (errors.js: its left, its bottom + 4 px).
            #expect(page.number("note", "dx").map { abs($0) <= 1 } == true, "\(page)")
            #expect(page.number("note", "dy").map { $0 >= 0 && $0 <= 8 } == true, "\(page)")
            #expect(page.string("marked") == "name with a control character", "data-error on the field")
            #expect(page.flag("gone"), "the note is gone within 8 s: \(page)")
            #expect(page.flag("unmarked"), "data-error removed with it")
            #expect(page.string("rig_after") == "in_1")
            #expect(page.string("after") == "in_1", "the field shows the rig's name again: \(page)")
            #expect(page.string("stored") == "in_1", "the page's store holds the rig's name: \(page)")
            #expect(try await Self.query(rig, "/source/1/name") == .string("in_1"))
        }
    }

    /// Two touch pointers at once: source 1's fader up, source 2's down.
    @Test func twoFingersMoveTwoFadersAtOnce() async throws {
        try await withRig(inputs: 3) { rig in
            let page = try await Self.runPage("two-fingers", rig: rig)
            #expect(page.flag("loaded"), "\(page)")
            #expect(Self.close(page.number("before", "/source/1/fader"), 0.75))
            #expect(Self.close(page.number("before", "/source/2/fader"), 0.75))
            #expect(page.flag("agree"), "both faders show the rig's values: \(page)")
            let one = try #require(try await Self.query(rig, "/source/1/fader")?.floatValue)
            let two = try #require(try await Self.query(rig, "/source/2/fader")?.floatValue)
            #expect(one > 0.75 + 0.05, "source 1 up: \(one), \(page)")
            #expect(two < 0.75 - 0.05, "source 2 down: \(two), \(page)")
            #expect(Self.close(page.number("page", "/source/1/fader"), Double(one), 1e-3))
            #expect(Self.close(page.number("page", "/source/2/fader"), Double(two), 1e-3))
            #expect(try await Self.query(rig, "/source/3/fader")?.floatValue == 0.75, "the other faders unchanged")
        }
    }

    /// The browser reaches the rig from 127.0.0.1 (Linux gives a connection
    /// to any 127.x address that source), so `--read-only 127.0.0.1/32` makes
    /// the page a read-only session; the scene is set from a client bound to
    /// 127.0.0.3, which loopback's default allows.
    @Test func aReadOnlyClientsPageShowsEverythingWithItsControlsDisabled() async throws {
        try await withRig(arguments: ["--read-only", "127.0.0.1/32"]) { rig in
            let control = try OSCTestClient(target: .init(host: "127.0.0.1", port: rig.oscPort), bindHost: "127.0.0.3")
            defer { control.close() }
            try control.send("/source/1/name", .string("Lead"))
            try control.send("/ping")
            _ = try await control.waitFor(address: "/pong", timeout: .seconds(5))
            let page = try await Self.runPage("read-only", rig: rig)
            #expect(page.flag("loaded"), "\(page)")
            #expect(page.flag("marked"), "data-access=read-only: \(page)")
            #expect(page.string("before", "access") == "read-only")
            #expect(page.string("before", "names", "/source/1/name") == "Lead", "the scene is shown")
            for kind in ["sliders", "switches", "cells"] {
                let controls = (page["before", kind] as? [String: Any] ?? [:]).compactMapValues { $0 as? [String: Any] }
                #expect(!controls.isEmpty, "\(kind)")
                #expect(controls.values.allSatisfy { $0["disabled"] as? String == "true" }, "\(kind): \(controls)")
            }
            // The attempts changed nothing, on the page or in the rig.
            #expect(Self.close(page.number("after", "sliders", "/source/1/fader", "now"), 0.75))
            #expect(page.string("after", "cells", "/matrix/1/2", "pressed") == "false")
            #expect(page.string("after", "switches", "/source/1/mute", "checked") == "false")
            #expect(try await Self.query(rig, "/source/1/fader") == .float(0.75))
            #expect(try await Self.query(rig, "/matrix/1/2") == .float(0))
            #expect(try await Self.query(rig, "/source/1/mute") == .int32(0))
        }
    }
}
}
