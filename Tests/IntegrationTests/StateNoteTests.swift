import Foundation
import Testing

/// A saved state that is never silently lost (issues 32 and 34): the state
/// file is read field by field, so one bad field is skipped and named with
/// the rest of the scene kept; a file that cannot be read at all is set
/// aside and named. Either way `/status/state_note` says so until
/// `/status/state_note/ack`.
extension Integration {
@Suite struct StateNoteTests {
    typealias Patch = SourcePatchTests

    static func query(_ rig: CrosspointRig, _ address: String) async throws -> OSCTestClient.Argument? {
        try await Integration.PageTests.query(rig, address)
    }

    /// `/status/state_note`'s three strings, from a `/status` bundle.
    static func note(_ rig: CrosspointRig) async throws -> [String] {
        _ = try rig.osc.drain()
        try rig.osc.send("/status")
        let message = try await rig.osc.waitFor(address: "/status/state_note", timeout: .seconds(5))
        return (0..<3).map { message.argument($0)?.stringValue ?? "?" }
    }

    /// A scene to keep: a name, a crosspoint, a level; once in the state file.
    static func keepAScene(_ rig: CrosspointRig) async throws {
        try rig.osc.send("/source/2/name", .string("Vox"))
        try rig.osc.send("/matrix/2/1", .float(0.5))
        try await rig.sendAndSettle("/output/2/db", .float(-6))
        let saved = try await Patch.within(.seconds(5)) {
            ((try? String(contentsOf: rig.stateFile, encoding: .utf8)) ?? "").contains("\"Vox\"")
        }
        #expect(saved != nil, "the state file has the scene")
    }

    @Test func aBadFieldIsSkippedAndNamedAndTheRestKept() async throws {
        try await withRig(inputs: 3, outputs: 2) { rig in
            #expect(try await Self.note(rig) == ["", "", ""], "nothing to say")
            try await Self.keepAScene(rig)
            rig.crosspoint.terminate()
            // A patch no rig would take (over 256 bytes), as an older build
            // could write for a JACK client with long names.
            let text = try String(contentsOf: rig.stateFile, encoding: .utf8)
            let bad = text.replacingOccurrences(of: #""patch": """#, with: "\"patch\": \"^\(String(repeating: "x", count: 300))$\"")
            #expect(bad != text)
            try bad.write(to: rig.stateFile, atomically: true, encoding: .utf8)

            let restarted = try await rig.restart()
            defer { restarted.terminate() }
            #expect(try await Self.query(rig, "/rig/inputs") == .int32(3), "the size kept")
            #expect(try await Self.query(rig, "/source/2/name") == .string("Vox"))
            #expect(try await Self.query(rig, "/matrix/2/1")?.floatValue.map { abs($0 - 0.5) < 1e-6 } == true)
            #expect(try await Self.query(rig, "/output/2/db")?.floatValue.map { abs($0 + 6) < 1e-3 } == true)
            #expect(try await Self.query(rig, "/source/1/patch") == .string(""), "the bad field skipped")
            let note = try await Self.note(rig)
            #expect(note[0] == rig.stateFile.path, "\(note)")
            #expect(note[1].contains("sources[0].patch") && note[1].contains("longer than 256"), "\(note)")
            #expect(note[2].hasSuffix("Z") && note[2].count == 20, "UTC, ISO 8601: \(note)")
            #expect(restarted.standardError.contains("sources[0].patch"), "logged: \(restarted.diagnostics())")

            // The page shows it in its status bar, as an alert; "Got it" acknowledges it.
            let page = try await Integration.PageTests.runPage("state-note", rig: rig)
            #expect(page.flag("loaded"), "\(page)")
            #expect(page.string("shown", "role") == "alert", "\(page)")
            #expect(page.string("shown", "text")?.contains("sources[0].patch") == true, "\(page)")
            #expect(page.flag("gone"), "\(page)")
            #expect(try await Self.note(rig) == ["", "", ""], "cleared once acknowledged")
        }
    }

    @Test func aTruncatedFileIsSetAsideAndNamed() async throws {
        try await withRig(inputs: 12, outputs: 2) { rig in
            try await Self.keepAScene(rig)
            rig.crosspoint.terminate()
            let data = try Data(contentsOf: rig.stateFile)
            try data.prefix(data.count / 2).write(to: rig.stateFile)

            let restarted = try await rig.restart()
            defer { restarted.terminate() }
            let note = try await Self.note(rig)
            #expect(note[0].hasPrefix(rig.stateFile.path + ".unreadable-"), "\(note)")
            #expect(FileManager.default.fileExists(atPath: note[0]), "set aside, never deleted")
            #expect(note[1].contains("set aside") && note[1].contains("not valid JSON"), "\(note)")
            #expect(try await Self.query(rig, "/rig/inputs") == .int32(8), "the default rig")
            try await rig.sendAndSettle("/status/state_note/ack")
            #expect(try await Self.note(rig) == ["", "", ""], "cleared once acknowledged")
        }
    }

    /// A state path that cannot be written stops the start, naming it
    /// (issue 34: a directory was accepted, and nothing was ever saved);
    /// `--state-optional` runs with a warning.
    @Test func anUnwritableStatePathStopsTheStart() async throws {
        let jack = try await JackServer.start(periodSize: 64, synchronous: true)
        defer { jack.stop() }
        let directory = try CrosspointRig.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func serve(_ extra: [String]) throws -> ChildProcess {
            try ChildProcess(executable: CrosspointRig.binary,
                             arguments: ["serve", "--jack-server", jack.name, "--no-autostart", "--osc-port", "0",
                                         "--http-port", "0", "--no-advertise", "--presets", directory.path + "/presets",
                                         "--state", directory.path] + extra,
                             label: "crosspoint serve")
        }
        let refused = try serve([])
        defer { refused.terminate() }
        #expect(try await refused.waitForExit(timeout: .seconds(20)) == .exited(1), "\(refused.diagnostics())")
        #expect(refused.standardError.contains("the rig state cannot be saved") && refused.standardError.contains(directory.path),
                "\(refused.diagnostics())")
        let optional = try serve(["--state-optional"])
        defer { optional.terminate() }
        try await optional.waitForOutput(containing: "ready: OSC on UDP port", timeout: .seconds(20))
        #expect(optional.standardError.contains("--state-optional: running without saving"), "\(optional.diagnostics())")
    }

    /// A save that fails during the show: `/status/state_saved 0` and why,
    /// subscribers told, a line on the page, until a save succeeds.
    @Test func aSaveThatFailsDuringTheShowIsShownUntilOneSucceeds() async throws {
        try await withRig(inputs: 2, outputs: 2) { rig in
            func saved() async throws -> [OSCTestClient.Argument?] {
                _ = try rig.osc.drain()
                try rig.osc.send("/status")
                let message = try await rig.osc.waitFor(address: "/status/state_saved", timeout: .seconds(5))
                return [message.argument(0), message.argument(1)]
            }
            #expect(try await saved() == [.int32(1), .string("")])
            try await rig.sendAndSettle("/subscribe")
            // A directory where the state file was: no save can succeed (rename over it fails, for root too).
            let aside = rig.directory.appendingPathComponent("kept")
            try FileManager.default.createDirectory(at: aside, withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: rig.stateFile, to: aside.appendingPathComponent("state.json"))
            try FileManager.default.createDirectory(at: rig.stateFile, withIntermediateDirectories: false)
            let signal = rig.directory.appendingPathComponent("continue")
            let page = try Integration.PageTests.startPage("state-saved", rig: rig, ["--continue-file", signal.path])
            defer { page.terminate() }
            try await rig.sendAndSettle("/source/1/db", .float(-6))
            let told = try await rig.osc.waitFor(address: "/status/state_saved", timeout: .seconds(10))
            #expect(told.argument(0) == .int32(0), "subscribers told")
            let failing = try await saved()
            #expect(failing.first == .int32(0) && failing.last??.stringValue?.contains(rig.stateFile.path) == true, "\(failing)")
            try await page.waitForOutput(containing: "\"phase\": \"unsaved\"", in: [.standardOutput], timeout: .seconds(60))
            #expect(page.standardOutput.contains("The rig cannot save its state"), "\(page.standardOutput)")

            // Mended: the next save succeeds, and everyone is told.
            try FileManager.default.removeItem(at: rig.stateFile)
            try await rig.sendAndSettle("/source/1/db", .float(-3))
            let back = try await rig.osc.waitFor(address: "/status/state_saved", timeout: .seconds(10))
            #expect(back.argument(0) == .int32(1))
            #expect(try await saved() == [.int32(1), .string("")])
            FileManager.default.createFile(atPath: signal.path, contents: Data())
            let report = try await Integration.PageTests.report(of: page)
            #expect(report.flag("gone"), "\(report)")
            #expect(FileManager.default.fileExists(atPath: rig.stateFile.path), "saved again")
        }
    }
}
}
