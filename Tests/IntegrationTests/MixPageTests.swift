import Foundation
import Testing

/// Roles on the control page and a performer's personal mix, in a real
/// headless Chromium at a phone's size against the real `crosspoint serve
/// --access FILE` on an 8x8 rig: `tools/page/mix_check.py` drives the page
/// by scenario and prints what it saw as JSON; these tests assert on that
/// and on the rig over OSC.
///
/// The browser reaches the rig from 127.0.0.1 (Linux gives a connection to
/// any 127.x address that source), which the access file makes a viewer;
/// the code 4711 gives the role "drums", outputs 5 and 6 (and talkback 2,
/// where a test grants it); a client bound to 127.0.0.2 is the engineer.
extension Integration {
@Suite struct MixPageTests {
    typealias Page = PageTests

    static let code = "4711"

    /// The access file; without the code, as the engineer might reload it.
    static func access(withCode: Bool = true, talkback: Bool = false) -> String {
        """
        {"version": 1,
         "roles": {"engineer": {"control": "all"}, "drums": {"control": {"outputs": [5, 6]}\(talkback ? #", "talkbacks": [2]"# : "")},
                   "viewer": {"control": "none"}},
         "clients": [{"from": "127.0.0.0/8", "role": "engineer"}, {"from": "127.0.0.1/32", "role": "viewer"}\(
            withCode ? #", {"code": "\#(code)", "role": "drums"}"# : "")]}
        """
    }

    /// The driver, beside page_check.py in the package's tools/page.
    static var tool: String { Page.tool("mix_check.py") }

    /// Runs `body` with a rig (8x8 unless told) that reads this suite's access file.
    static func withAccessRig(inputs: Int = 8, outputs: Int = 8, talkback: Bool = false,
                              _ body: (CrosspointRig, [String]) async throws -> Void) async throws {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("crosspoint-access-\(UUID().uuidString).json")
        try Data(access(talkback: talkback).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let arguments = ["--access", file.path]
        try await withRig(inputs: inputs, outputs: outputs, arguments: arguments) { rig in try await body(rig, arguments) }
    }

    static func startMix(_ scenario: String, rig: CrosspointRig, _ extra: [String] = []) throws -> ChildProcess {
        try ChildProcess(executable: "python3",
                         arguments: [tool, scenario, "--http-port", "\(rig.httpPort)", "--osc-port", "\(rig.oscPort)",
                                     "--code", code] + extra,
                         label: "mix_check \(scenario)")
    }

    static func runMix(_ scenario: String, rig: CrosspointRig, _ extra: [String] = []) async throws -> Page.PageReport {
        let page = try startMix(scenario, rig: rig, extra)
        defer { page.terminate() }
        return try await Page.report(of: page)
    }

    /// The addresses the personal mix of these outputs has on an 8-input rig, and no others.
    static func mixAddresses(_ outputs: [Int]) -> Set<String> {
        var addresses = Set<String>()
        for m in outputs {
            addresses.formUnion(["/output/\(m)/fader", "/output/\(m)/mute", "/output/\(m)/delay", "/safe/mix/\(m)"])
            for n in 1...8 { addresses.insert("/matrix/\(n)/\(m)/fader") }
        }
        return addresses
    }

    static func float(_ rig: CrosspointRig, _ address: String) async throws -> Double? {
        try await Page.query(rig, address)?.floatValue.map(Double.init)
    }

    @Test func aCodeTurnsTheReadOnlyPageIntoThePersonalMixAndItsChangesReachTheRig() async throws {
        try await Self.withAccessRig { rig, _ in
            let page = try await Self.runMix("login", rig: rig)
            #expect(page.flag("decided"), "\(page)")

            // Before the login: the viewer's full page, read-only.
            #expect(page.string("before", "view") == "full", "\(page)")
            #expect(page.string("before", "access") == "read-only")
            #expect(page.string("before", "role") == "viewer")
            #expect((page.number("before", "read_only_controls") ?? 0) > 100, "every control disabled: \(page)")
            #expect(page.flag("before", "login_shown"), "the login form is visible")

            // After it: the mix of outputs 5 and 6, nothing else.
            #expect(page.flag("loaded"), "\(page)")
            #expect(page.string("after_login", "view") == "mix")
            #expect(page.string("after_login", "access") == "outputs")
            #expect(page.string("after_login", "role") == "drums")
            let addresses = (page["mix", "addresses"] as? [String]) ?? []
            #expect(Set(addresses) == Self.mixAddresses([5, 6]), "\(addresses.sorted())")
            #expect(addresses.count == Set(addresses).count, "each control once")
            let foreign = addresses.filter { address in
                address.hasPrefix("/master") || address.hasPrefix("/preset") || address.hasPrefix("/source")
                    || (1...4).contains { address.hasPrefix("/output/\($0)/") || address.hasSuffix("/\($0)/fader") }
            }
            #expect(foreign.isEmpty, "\(foreign)")
            #expect(page["mix", "engineer"] as? Bool == false, "the engineer's page is not in the document")
            let sections = (page["mix", "sections"] as? [[String: Any]]) ?? []
            #expect(sections.compactMap { $0["output"] as? String } == ["5", "6"])
            #expect((sections.first?["title"] as? String)?.hasPrefix("out_5") == true, "\(sections)")
            #expect(page.number("mix", "meters") == 16, "an input meter for each source in each mix")

            let sliders = ((page["mix", "sliders"] as? [String: Any]) ?? [:]).compactMapValues { $0 as? [String: Any] }
            #expect(sliders.count == 18)
            #expect(page.string("mix", "sliders", "/matrix/2/5/fader", "label") == "in_2", "the source's name")
            #expect(Page.close(page.number("mix", "sliders", "/matrix/5/5/fader", "now"), 0.75), "unity: \(page)")
            #expect(page.string("mix", "sliders", "/matrix/5/5/fader", "text") == "0.0 dB")
            #expect(page.number("mix", "sliders", "/matrix/1/5/fader", "now") == 0)
            #expect(page.string("mix", "sliders", "/matrix/1/5/fader", "text") == "-inf dB")
            #expect(page.string("mix", "sliders", "/output/6/fader", "label")?.hasPrefix("Level out_6") == true)
            for (address, slider) in sliders {
                #expect(slider["disabled"] == nil || slider["disabled"] is NSNull, "\(address) operable")
                #expect(slider["tabindex"] as? String == "0", "\(address) in the tab order")
                // A thumb's worth of height, nearly the phone's width.
                #expect(((slider["height"] as? NSNumber)?.doubleValue ?? 0) >= 44, "\(address): \(slider)")
                #expect(((slider["width"] as? NSNumber)?.doubleValue ?? 0) >= 300, "\(address): \(slider)")
            }
            let switches = ((page["mix", "switches"] as? [String: Any]) ?? [:]).compactMapValues { $0 as? [String: Any] }
            #expect(Set(switches.keys) == ["/output/5/mute", "/safe/mix/5", "/output/6/mute", "/safe/mix/6"])
            #expect(switches.values.allSatisfy { (($0["height"] as? NSNumber)?.doubleValue ?? 0) >= 44 })
            #expect((switches["/safe/mix/5"]?["name"] as? String)?.contains("Keep my mix") == true)
            let scrollWidth = try #require(page.number("mix", "scrollWidth"))
            #expect(scrollWidth <= 390 && page.number("mix", "innerWidth") == 390, "no sideways scroll at 390 px")

            // The code went nowhere but to the rig.
            for key in ["url", "dom", "inputs"] { #expect(page["secrets", key] as? Bool == false, "\(key): \(page)") }
            #expect(page.number("secrets", "storage") == 0)
            #expect(page.flag("logout_shown"))
            #expect(page.flag("renamed"), "the engineer's new name shows on the fader: \(page)")

            // Keyboard: ArrowUp one step from off, End to the top.
            #expect(page.number("up", "before") == 0)
            #expect(Page.close(page.number("up", "after"), 0.01))
            #expect(Page.close(try await Self.float(rig, "/matrix/1/5/fader"), 0.01, 1e-6))
            let quiet = try #require(try await Self.float(rig, "/matrix/1/5"))
            #expect(quiet > 0 && quiet < 1e-3, "-85.2 dB: \(quiet)")
            #expect(Page.close(page.number("end", "after"), 1))
            #expect(page.string("end", "text") == "10.0 dB")
            #expect(Page.close(try await Self.float(rig, "/matrix/2/6/fader"), 1, 1e-6))
            #expect(Page.close(try await Self.float(rig, "/matrix/2/6/db"), 10, 1e-3))

            // The mouse drag: 80 px to the right of wherever it started.
            let dragged = try #require(page.number("drag", "after"), "\(page)")
            #expect(dragged > 0.1, "the drag moved the fader: \(page)")
            #expect(Page.close(page.number("drag", "rig"), dragged, 1e-3), "\(page)")
            #expect(Page.close(try await Self.float(rig, "/matrix/3/5/fader"), dragged, 1e-3))

            // A finger: a vertical swipe on a fader scrolls the page and leaves the
            // fader where it was; a sideways one (120 px) moves it, less the 8 px slop.
            let touchedBefore = try #require(page.number("touch", "before"), "\(page)")
            #expect(page.number("touch", "swiped") == touchedBefore, "a swipe is not a fader move: \(page)")
            #expect((page.number("touch", "scrolled") ?? 0) > 50, "the swipe scrolled the page: \(page)")
            let touched = try #require(page.number("touch", "after"))
            #expect(touched > touchedBefore + 0.2, "the sideways finger moved it: \(page)")
            #expect(Page.close(try await Self.float(rig, "/matrix/4/5/fader"), touched, 1e-3), "\(page)")

            // The switches.
            #expect(page.string("switched", "/safe/mix/5", "checked") == "true")
            #expect(try await Page.query(rig, "/safe/mix/5")?.intValue == 1)
            #expect(page.string("switched", "/output/6/mute", "checked") == "true")
            #expect(try await Page.query(rig, "/output/6/mute")?.intValue == 1)

            // Nothing outside the role moved.
            #expect(try await Page.query(rig, "/matrix/1/1") == .float(1))
            #expect(try await Page.query(rig, "/matrix/3/3") == .float(1))
            #expect(try await Page.query(rig, "/output/1/mute")?.intValue == 0)

            // Log out: the viewer's read-only page again.
            #expect(page.flag("logged_out"), "\(page)")
            #expect(page.string("after_logout", "view") == "full")
            #expect(page.string("after_logout", "access") == "read-only")
            #expect(page.string("after_logout", "role") == "viewer")
            #expect(page.flag("after_logout", "login_shown"))
            #expect(page.number("after_logout", "mix_sections") == 0)
            #expect(page.number("after_logout", "enabled_controls") == 0, "\(page)")
            for key in ["url", "dom", "inputs"] { #expect(page["secrets_after", key] as? Bool == false) }
            #expect((page["console_errors"] as? [Any])?.isEmpty == true, "\(page)")
        }
    }

    @Test func aWrongCodeShowsTheRigsReasonBesideTheFormAndThePageStaysReadOnly() async throws {
        try await Self.withAccessRig { rig, _ in
            let page = try await Self.runMix("wrong-code", rig: rig, ["--code", "1234"])
            #expect(page.flag("decided"), "\(page)")
            #expect(page.string("before", "access") == "read-only")
            #expect(page.string("note", "text") == "wrong code", "\(page)")
            #expect(page["note", "visible"] as? Bool == true)
            #expect(page.number("note", "dx").map { abs($0) <= 1 } == true, "below the form: \(page)")
            #expect(page.number("note", "dy").map { $0 >= 0 && $0 <= 8 } == true, "below the form: \(page)")
            #expect(page.string("after", "view") == "full")
            #expect(page.string("after", "access") == "read-only")
            #expect(page.string("after", "role") == "viewer")
            #expect(page.flag("login_shown"), "the form stays for another try")
            #expect(page.number("mix_sections") == 0)
            for key in ["url", "dom", "inputs"] { #expect(page["secrets", key] as? Bool == false, "\(key): \(page)") }
        }
    }

    /// After serve restarts on the same ports, the page sends /role and the
    /// code it kept in memory again: the mix comes back without the viewer's
    /// page in between.
    @Test func thePersonalMixComesBackAfterTheServerRestarts() async throws {
        try await Self.withAccessRig { rig, arguments in
            let signal = rig.directory.appendingPathComponent("continue")
            let page = try Self.startMix("hold", rig: rig, ["--continue-file", signal.path])
            defer { page.terminate() }
            try await page.waitForOutput(containing: "\"phase\": \"open\"", in: [.standardOutput], timeout: .seconds(90))
            #expect(page.standardOutput.contains("\"view\": \"mix\""), "\(page.standardOutput)")

            rig.crosspoint.terminate()
            let restarted = try ChildProcess(
                executable: CrosspointRig.binary,
                arguments: ["serve", "--jack-server", rig.jack.name, "--no-autostart",
                            "--osc-port", "\(rig.oscPort)", "--http-port", "\(rig.httpPort)",
                            "--inputs", "\(rig.inputs)", "--outputs", "\(rig.outputs)"]
                    + CrosspointRig.fileArguments(rig.directory) + arguments,
                label: "crosspoint serve (restarted)")
            defer { restarted.terminate() }
            try await restarted.waitForOutput(containing: "ready: OSC on UDP port", timeout: .seconds(20))
            FileManager.default.createFile(atPath: signal.path, contents: Data())

            let report = try await Page.report(of: page)
            #expect(report.flag("loaded"), "\(report)")
            #expect(report.flag("saw_closed"), "data-connection=closed while serve was away: \(report)")
            #expect(report.flag("reopened"))
            #expect(report.flag("again"), "the role again by the kept code: \(report)")
            #expect(report.string("role") == "drums")
            #expect(report.string("view") == "mix")
            #expect((report["views"] as? [String]) == ["mix"], "never the viewer's page in between: \(report)")
            #expect((report["outputs"] as? [String]) == ["5", "6"])
            for key in ["url", "dom", "inputs"] { #expect(report["secrets", key] as? Bool == false) }
        }
    }

    /// The engineer takes the code out of the access file and serve reads it
    /// again (SIGHUP): the rig logs the session out, and the page, seeing
    /// /status/access no longer "outputs", asks /role and becomes the
    /// viewer's read-only page, forgetting the code.
    @Test func aCodeTakenOutOfTheAccessFileEndsThePersonalMix() async throws {
        try await Self.withAccessRig { rig, arguments in
            let signal = rig.directory.appendingPathComponent("continue")
            let page = try Self.startMix("hold", rig: rig, ["--continue-file", signal.path, "--role", "viewer"])
            defer { page.terminate() }
            try await page.waitForOutput(containing: "\"phase\": \"open\"", in: [.standardOutput], timeout: .seconds(90))
            #expect(page.standardOutput.contains("\"view\": \"mix\""), "\(page.standardOutput)")

            let file = try #require(arguments.last)
            try Data(Self.access(withCode: false).utf8).write(to: URL(fileURLWithPath: file))
            #expect(rig.crosspoint.signalIfRunning(SIGHUP))
            try await rig.crosspoint.waitForOutput(containing: "no longer in the access file", timeout: .seconds(10))
            FileManager.default.createFile(atPath: signal.path, contents: Data())

            let report = try await Page.report(of: page)
            #expect(report.flag("again"), "the viewer's page within 10 s: \(report)")
            #expect(!report.flag("saw_closed"), "the same connection: \(report)")
            #expect(report.string("role") == "viewer")
            #expect(report.string("view") == "full")
            #expect(report.string("access") == "read-only")
            #expect((report["outputs"] as? [String]) == [])
            #expect(report.flag("login_shown"), "the form again, the code forgotten: \(report)")
            #expect(!report.flag("logout_shown"))
        }
    }

    /// A performer granted talkback 2 (issue 37) has its talk button above
    /// the personal mix, named by the talkback's name, and none of the
    /// engineer's: held by a finger it talks in the rig, let go it stops.
    @Test func aPerformerGrantedATalkbackHasItsTalkButtonAboveTheMix() async throws {
        try await Self.withAccessRig(talkback: true) { rig, _ in
            let page = try await Self.runMix("talk", rig: rig)
            #expect(page.flag("loaded") && page.string("view") == "mix", "\(page)")
            let before = page["before"] as? [[String: Any]] ?? []
            #expect(before.compactMap { $0["address"] as? String } == ["/talkback/1/talk", "/talkback/2/talk"],
                    "the viewer's page has the engineer's buttons: \(page)")
            let built = page["built"] as? [[String: Any]] ?? []
            #expect(built.count == 1 && built.first?["address"] as? String == "/talkback/2/talk", "\(page)")
            #expect(built.first?["in_mix"] as? Bool == true && built.first?["shown"] as? Bool == true)
            #expect((built.first?["text"] as? String)?.contains("MD") == true, "named by the talkback: \(page)")
            #expect((built.first?["height"] as? Double ?? 0) >= 44, "big enough for a thumb: \(page)")
            #expect(page.number("held", "rig") == 1 && page.string("held", "pressed") == "true", "\(page)")
            #expect(page.string("held", "text")?.contains("talking") == true)
            #expect(page.number("released", "rig") == 0 && page.string("released", "pressed") == "false", "\(page)")
            #expect(try await Page.query(rig, "/talkback/1/talk")?.intValue == 0, "talkback 1 never talked")
        }
    }

    /// The personal mix at a phone's size (390x844, scale 2), as a picture
    /// (docs/page-mix-phone.png is one made this way).
    @Test func thePersonalMixAtAPhonesSize() async throws {
        try await Self.withAccessRig { rig, _ in
            let out = rig.directory.appendingPathComponent("page-mix-phone.png")
            let page = try await Self.runMix("screenshot", rig: rig, ["--out", out.path])
            #expect(page.flag("loaded"), "\(page)")
            #expect(page.string("view") == "mix")
            let png = try Data(contentsOf: out)
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
            // IHDR: width and height, big-endian, at bytes 16 and 20.
            let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }
            let height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
            #expect(width == 780 && height == 1688, "\(width)x\(height)")
        }
    }
}
}
