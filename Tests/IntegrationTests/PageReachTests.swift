import Foundation
import Testing

/// A page an engineer can drive at 256 channels (issue 34): what the
/// keyboard moves to is seen (the focused cell wholly in the viewport,
/// below the sticky status bar, after arrows, Home/End and the jump), a far
/// strip is reached by a jump and a filter, every column head's accessible
/// name has its output's name, the first source strip's fader, meter, mute
/// and solo are in the first screen of a laptop, and the phone's status bar
/// takes one line. `tools/page/reach_check.py` drives a real headless
/// Chromium against the real rig at 1280x800 (a laptop's window) and 390x844
/// (a phone) and prints JSON; this test asserts on it and on the rig.
extension Integration {
@Suite struct PageReachTests {
    typealias Page = PageTests

    @Test func whatTheKeyboardReachesIsSeenOnALaptopAndAPhone() async throws {
        try await withRig(inputs: 256, outputs: 256) { rig in
            try rig.osc.send("/source/200/name", .string("Bass DI"))
            try await rig.sendAndSettle("/output/119/name", .string("Wedge 3"))
            for phone in [false, true] {
                let screen = phone ? "phone" : "laptop"
                let page = try await Page.runPage("reach", rig: rig, ["--inputs", "256", "--outputs", "256"]
                                                  + (phone ? ["--phone"] : []), driver: "reach_check.py")
                print("note: \(screen): \(page)")
                // The matrix: every step leaves the focused cell wholly in view, below the bar, clear of the heads.
                let expected = ["ctrl_home": "/matrix/1/1", "down_40": "/matrix/41/1", "down": "/matrix/200/1",
                                "right": "/matrix/200/200", "home": "/matrix/200/1", "end": "/matrix/200/256",
                                "jump": "/matrix/200/119", "tab_back": "/matrix/200/119"]
                for (step, address) in expected {
                    #expect(page.string("matrix", "steps", step, "focused") == address, "\(screen) \(step): \(page)")
                    #expect(page.flag("matrix", "steps", step, "in_viewport"),
                            "\(screen) \(step): the focused cell is in the viewport below the bar: \(page)")
                    #expect(page.flag("matrix", "steps", step, "clear_of_heads"), "\(screen) \(step): \(page)")
                    #expect((page.number("matrix", "steps", step, "elements") ?? .infinity) <= 10_000)
                }
                #expect(page.string("matrix", "toggled") == "/matrix/200/200")
                #expect(page.number("matrix", "rig") != nil && page.number("matrix", "rig") != page.number("matrix", "rig_before"),
                        "\(screen): Space toggled /matrix/200/200 in the rig: \(page)")

                // The strips: a jump by number and by name focuses the fader in view; the filter keeps Bass DI alone.
                #expect(page.string("strips", "source", "focused") == "/source/200/fader", "\(screen): \(page)")
                #expect(page.flag("strips", "source", "in_viewport"), "\(screen): /source/200/fader in view: \(page)")
                #expect(page.string("strips", "output", "focused") == "/output/119/fader", "\(screen): \(page)")
                #expect(page.flag("strips", "output", "in_viewport"), "\(screen): /output/119/fader in view: \(page)")
                #expect(page["strips", "filtered"] as? [Int] == [200], "\(screen): \(page)")
                // Source 1's "More", opened, stays open for the session: also once its strip is emptied and built again.
                #expect(page["strips", "more_opened", "open"] as? Bool == true && page.flag("strips", "more_opened", "patch_shown"))
                #expect(page.flag("strips", "more_away", "pending"), "\(screen): strip 1 emptied while far away: \(page)")
                #expect(page["strips", "more_back", "open"] as? Bool == true, "\(screen): remembered: \(page)")
                #expect(page.flag("strips", "more_back", "patch_shown"))
                #expect(page.string("strips", "labels", "jump") == "Go to source (number or name)")
                #expect(page.string("strips", "labels", "filter") == "Show sources whose name or number holds")

                // The column heads: each one's accessible name has its output's name, and Wedge 3 and out_120 show whole.
                let heads = (page["heads"] as? [[String: Any]]) ?? []
                #expect(heads.count >= 4, "\(screen): \(heads)")
                for head in heads {
                    let output = head["output"] as? Int ?? 0
                    let name = output == 119 ? "Wedge 3" : "out_\(output)"
                    #expect((head["accessible_name"] as? String)?.contains(name) == true, "\(screen): \(head)")
                }
                for output in [119, 120] {
                    let head = heads.first { $0["output"] as? Int == output }
                    #expect(head?["whole"] as? Bool == true, "\(screen): output \(output)'s name shows whole: \(String(describing: head))")
                }

                // The first screen: the status bar, and on the laptop the first source's fader, meter, mute and solo.
                let viewport = (page["first", "viewport"] as? [Double]) ?? []
                let height = try #require(viewport.last)
                let bar = try #require(page.number("first", "bar_bottom"))
                if phone {
                    #expect(bar <= 60, "the phone's status bar takes one line: \(bar) px")
                    #expect(page.flag("first", "toggle_shown"))
                    #expect(!page.flag("first", "links_before"), "the section links are behind ☰")
                    #expect(page.string("first", "toggle_expanded") == "true")
                    #expect(page.flag("first", "links_after"), "and shown by it")
                    #expect(page.string("first", "toggle_after_link") == "false", "a link followed folds it")
                } else {
                    #expect((600...720).contains(height), "a 1280x800 window (657 px of viewport here): \(viewport)")
                    for part in ["fader", "meter", "mute", "solo"] {
                        let rect = (page["first", part] as? [Double]) ?? []
                        #expect(rect.count == 4 && rect[1] >= bar && rect[3] <= height,
                                "laptop: the first source's \(part) is in the first screen: \(rect), bar \(bar), height \(height)")
                    }
                    #expect(!page.flag("first", "toggle_shown"), "no ☰ on a laptop: the bar holds it all")
                    #expect(page.flag("first", "links_before"))
                }
                #expect(page.flag("first", "alert_shown"), "\(screen): an alert line shows in the bar")
                let withAlert = (page["first", "bar_with_alert"] as? [Double]) ?? []
                #expect(withAlert.count == 4 && withAlert[3] > bar, "\(screen): the alert adds a line: \(withAlert)")
                #expect((page["console_errors"] as? [Any])?.isEmpty == true, "\(page)")
            }
        }
    }
}
}
