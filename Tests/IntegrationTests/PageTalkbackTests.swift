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
}
}
