import Foundation
import Testing

/// The personal mix built from the catalogue's `mix` entries (issue 33): the
/// output's delay field, reached over OSC and following feedback; at 256
/// sources only the faders near the window are built, and a far one is
/// still reached, by scrolling and by Tab, and works; and a linked pair's
/// pan is titled as the balance it is. `tools/page/mix_reach_check.py`
/// drives a real headless Chromium against the real rig and prints JSON;
/// these tests assert on it and on the rig over OSC.
extension Integration {
@Suite struct MixPageReachTests {
    typealias Page = PageTests

    /// The most elements the document may hold with the mix of two outputs of 256 sources on a phone:
    /// 5,210 when every fader was built; 900 to 1,100 now (an empty row per source, the rows near the
    /// window built).
    static let elementBound = 2_000

    static func run(_ scenario: String, _ rig: CrosspointRig) async throws -> Page.PageReport {
        let report = try await Page.runPage(scenario, rig: rig, ["--code", MixPageTests.code], driver: "mix_reach_check.py")
        print("note: \(scenario): \(report)")
        return report
    }

    @Test func theMixHasEachOutputsDelayFieldWhichReachesTheRigAndFollowsIt() async throws {
        try await MixPageTests.withAccessRig { rig, _ in
            let page = try await Self.run("delay", rig)
            #expect(page.flag("loaded"), "\(page)")
            for m in [5, 6] {
                #expect(page.string("fields", "\(m)", "type") == "number", "output \(m): \(page)")
                #expect(page.string("fields", "\(m)", "label") == "Output \(m) delay in ms")
                #expect(page.string("fields", "\(m)", "section") == "\(m)", "in its output's section")
                #expect(page.string("fields", "\(m)", "min") == "0" && page.string("fields", "\(m)", "max") == "500",
                        "the catalogue's range (serve --max-delay-ms 500): \(page)")
                #expect(page["fields", "\(m)", "disabled"] as? Bool == false, "operable")
                #expect((page.number("fields", "\(m)", "height") ?? 0) >= 44, "a thumb's height: \(page)")
                #expect(page["fields", "\(m)", "inside"] as? Bool == true, "within the phone's width")
                #expect(page.string("fields", "\(m)", "text")?.hasPrefix("delay") == true, "named where it is seen")
            }
            #expect(Page.close(page.number("typed"), 12.5), "typed into the field, in the rig: \(page)")
            #expect(page.string("followed") == "40", "the engineer's 40 ms shows in the field: \(page)")
            #expect(Page.close(try await MixPageTests.float(rig, "/output/5/delay"), 40))
            #expect(Page.close(try await MixPageTests.float(rig, "/output/6/delay"), 0), "the other output's stays")
            #expect((page["console_errors"] as? [Any])?.isEmpty == true, "\(page)")
        }
    }

    @Test func atTwoHundredFiftySixSourcesTheMixBuildsWhatIsNearTheWindowAndReachesTheRest() async throws {
        try await MixPageTests.withAccessRig(inputs: 256, outputs: 256) { rig, _ in
            let page = try await Self.run("far", rig)
            #expect(page.flag("loaded"), "\(page)")
            for step in ["loaded", "far", "tab"] {
                let elements = try #require(page.number("counts", step, "document"), "\(page)")
                #expect(elements < Double(Self.elementBound), "\(step): \(elements) elements")
                #expect((page.number("counts", step, "faders") ?? .infinity) < 120, "\(step): only the rows near view")
                #expect((page.number("counts", step, "pending") ?? 0) > 400, "\(step): the rest empty")
            }
            #expect(page["pending_row", "pending"] as? Bool == true, "source 200's row is empty at first: \(page)")
            #expect(page.string("pending_row", "role") == "group" && page.string("pending_row", "label") == "Source 200")
            #expect(page.string("pending_row", "tabindex") == "0", "in the tab order")

            // Scrolled to: source 200's fader is built and works.
            #expect(page.flag("far", "built"), "\(page)")
            #expect(page.string("far", "label") == "in_200")
            #expect(Page.close(page.number("far", "after"), 1), "End: \(page)")
            #expect(Page.close(page.number("far", "rig"), 1))
            #expect(Page.close(try await MixPageTests.float(rig, "/matrix/200/5/db"), 10, 1e-3))

            // A focused fader stays built far from the window, and the keyboard still moves it.
            #expect(page.string("kept", "focused") == "/matrix/3/5/fader", "\(page)")
            #expect(page["kept", "source_2_pending"] as? Bool == true, "its neighbours were emptied: \(page)")
            #expect(Page.close(page.number("kept", "after"), 0.01) && Page.close(page.number("kept", "rig"), 0.01))

            // Tab walks every source: 255 Tabs from source 1's fader reach source 256's, in view.
            #expect(page.string("tab", "focused") == "/matrix/256/6/fader", "\(page)")
            #expect(page.flag("tab", "in_viewport"), "the focused fader is wholly in view below the bar: \(page)")
            #expect(page.string("shift_tab", "focused") == "/matrix/254/6/fader")
            #expect(page.flag("shift_tab", "in_viewport"))
            #expect(try await Page.query(rig, "/matrix/256/6/fader")?.floatValue == 0, "Tab changed nothing")
            #expect((page["console_errors"] as? [Any])?.isEmpty == true, "\(page)")
        }
    }

    @Test func aLinkedPairsPanIsTitledBalance() async throws {
        try await withRig(inputs: 64, outputs: 2) { rig in
            let page = try await Self.run("balance", rig)
            #expect(page.flag("loaded"), "\(page)")
            let expected: [(String, String, String)] = [
                ("start", "1", "Source 1 pan"), ("start", "3", "Source 3 pan"),
                ("linked_1", "1", "Sources 1 and 2 balance"), // a built strip, linked
                ("jumped_61", "61", "Sources 61 and 62 balance"), // built by the jump while linked
                ("unlinked_61", "61", "Source 61 pan"),
                ("back_1", "1", "Sources 1 and 2 balance"), // emptied far away, built again while linked
            ]
            for (step, source, title) in expected {
                #expect(page.string("steps", step, source, "label") == title, "\(step) \(source): \(page)")
                #expect(page.string("steps", step, source, "name") == title, "the browser's accessible name")
            }
            #expect((page["console_errors"] as? [Any])?.isEmpty == true, "\(page)")
        }
    }
}
}
