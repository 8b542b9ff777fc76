import Foundation
import Testing

/// The control page's talk buttons and the engineer's listen (issue 37,
/// docs/talkback.md): `tools/page/talk_check.py` drives a real headless
/// Chromium against the real rig (changes from another client over OSC);
/// these tests assert on its JSON report and on the rig over OSC.
extension Integration {
@Suite struct PageTalkbackTests {
    typealias Page = PageTests

    static func run(_ scenario: String, _ rig: CrosspointRig) async throws -> Page.PageReport {
        try await Page.runPage(scenario, rig: rig, driver: "talk_check.py")
    }

    @Test func holdingATalkButtonTalksAndLettingGoStops() async throws {
        try await withRig(inputs: 2, outputs: 4) { rig in
            let page = try await Self.run("talk", rig)
            #expect(page.flag("loaded"), "\(page)")
            let built = page["built"] as? [[String: Any]] ?? []
            #expect(built.compactMap { $0["address"] as? String } == ["/talkback/1/talk", "/talkback/2/talk"], "\(page)")
            #expect(built.allSatisfy { $0["pressed"] as? String == "false" && $0["shown"] as? Bool == true })
            #expect(built.first?["name"] as? String == "Talk on talkback 1", "named by the catalogue's title")
            #expect(page.number("held", "rig") == 1 && page.string("held", "page", "pressed") == "true", "\(page)")
            #expect(page.string("held", "page", "text")?.contains("talking") == true, "talking, in words")
            #expect(page.number("still_held") == 1, "it talks as long as it is held")
            #expect(page.number("released", "rig") == 0 && page.string("released", "page", "pressed") == "false")
            #expect(page.number("space_held", "rig") == 1 && page.string("space_held", "focused") == "/talkback/1/talk")
            #expect(page.number("space_released") == 0)
            #expect(page.number("latched", "rig") == 1 && page.string("latched", "page", "pressed") == "true",
                    "a double tap talks on after the release: \(page)")
            #expect(page.number("unlatched", "rig") == 0, "until the next tap")
            #expect(page.string("other", "pressed") == "true" && page.string("other_stopped", "pressed") == "false",
                    "another client's talk shows without a reload")
            #expect(try await Page.query(rig, "/talkback/1/talk")?.intValue == 0)
            #expect((page["console_errors"] as? [Any])?.isEmpty == true, "\(page)")
        }
    }

    @Test func aListenSwitchSelectsItAndTheListenSectionNamesWhatIsHeard() async throws {
        try await withRig(inputs: 2, outputs: 4) { rig in
            let page = try await Self.run("listen", rig)
            #expect(page.flag("loaded"), "\(page)")
            #expect(page.string("built", "heading") == "Listen", "\(page)")
            #expect(page.string("built", "text") == "Listening: nothing" && page.string("built", "live") == "polite")
            #expect((page["built", "controls"] as? [String] ?? []).contains("/listen/mode"), "\(page)")
            #expect(page.number("clicked", "rig") == 1 && page.string("clicked", "switch") == "true", "\(page)")
            #expect(page.string("clicked", "text") == "Listening: Output 2, out_2", "\(page)")
            #expect(page.string("named") == "Listening: Output 2, Drums wedge", "\(page)")
            #expect(page.string("other", "text") == "Listening: Source 1, in_1", "exclusive: the source alone: \(page)")
            #expect(page.string("other", "source_switch") == "true" && page.string("other", "output_switch") == "false")
            #expect(page.number("other", "rig_output") == 0)
            #expect((page["console_errors"] as? [Any])?.isEmpty == true, "\(page)")
        }
    }

    /// A talkback's destinations, in its settings view: a disclosure on its
    /// strip opened from the keyboard, a switch per output, and the rig's
    /// destinations both ways without a reload.
    @Test func aTalkbacksDestinationsAreSetInItsSettingsView() async throws {
        try await withRig(inputs: 2, outputs: 4) { rig in
            let page = try await Self.run("destinations", rig)
            #expect(page.flag("loaded"), "\(page)")
            #expect(page["closed", "open"] as? Bool == false && page.string("closed", "summary")?.contains("(none)") == true,
                    "closed, and it talks nowhere: \(page)")
            #expect((page["closed", "switches"] as? [Any])?.isEmpty == true, "no switches until it opens")
            let switches = page["opened", "switches"] as? [[String: Any]] ?? []
            #expect(switches.compactMap { $0["address"] as? String } == (1...4).map { "/talkback/1/output/\($0)" }, "\(page)")
            #expect(switches.allSatisfy { $0["role"] as? String == "switch" && $0["checked"] as? String == "false" })
            #expect(switches.first?["name"] as? String == "Talkback 1 to output 1", "named by the catalogue's title: \(page)")
            #expect(switches.map { $0["label"] as? String } == ["1", "2", "3", "4"])
            #expect(page.number("clicked", "rig") == 1 && page.string("clicked", "summary")?.contains("(3)") == true, "\(page)")
            #expect((page["other", "switches"] as? [[String: Any]])?.first { $0["address"] as? String == "/talkback/1/output/4" }?["checked"]
                    as? String == "true", "another client's destination shows: \(page)")
            #expect(page.number("spaced", "rig") == 0 && page.string("spaced", "summary")?.contains("(4)") == true, "\(page)")
            #expect(try await Page.query(rig, "/talkback/2/output/3")?.intValue == 0, "talkback 2 untouched")
            #expect((page["console_errors"] as? [Any])?.isEmpty == true, "\(page)")
        }
    }
}
}
