import Foundation
import Testing

/// The control page at size (issue 22): at 64x64 and 256x256 it is populated
/// within its bounds with at most 10,000 elements, because only what is near
/// view is in the document; a cell far off screen is reached by keyboard and
/// toggled in the rig; the overview, the jump and the filters find a
/// crosspoint; a preset whose file cannot be read is marked and not
/// recalled. `tools/page/size_check.py` drives a real headless Chromium
/// against the real rig and prints JSON; these tests assert on it and on
/// the rig over OSC.
extension Integration {
@Suite struct PageSizeTests {
    typealias Page = PageTests

    static func run(_ scenario: String, _ rig: CrosspointRig, inputs: Int, outputs: Int,
                    phone: Bool = false) async throws -> PageTests.PageReport {
        try await Page.runPage(scenario, rig: rig, ["--inputs", "\(inputs)", "--outputs", "\(outputs)"]
                                                    + (phone ? ["--phone"] : []), driver: "size_check.py")
    }

    /// At most 10,000 elements, and populated: the issue's bounds (1 s at
    /// 64x64, 2 s at 256x256) are held by the benchmark, on the release
    /// build, as medians (BENCHMARKS.md, "Control page", `scripts/bench
    /// --only page`). Here, against the debug build on a shared machine,
    /// only a loose bound, six and seven and a half times theirs, that
    /// catches a page gone several times slower: a tighter one (three
    /// times) failed once at 256x256 (6.9 s) with two compilers beside it.
    @Test(arguments: [(64, 6000.0), (256, 15000.0)])
    func thePageIsPopulatedWithinItsBoundsAtSize(size: Int, bound: Double) async throws {
        try await withRig(inputs: size, outputs: size) { rig in
            for phone in [false, true] {
                let page = try await Self.run("ready", rig, inputs: size, outputs: size, phone: phone)
                let screen = phone ? "phone" : "desktop"
                let populated = try #require(page.number("populated_ms"), "\(screen): never populated: \(page)")
                #expect(populated <= bound, "\(size)x\(size) \(screen): populated in \(populated) ms")
                let elements = try #require(page.number("elements"))
                #expect(elements <= 10_000, "\(size)x\(size) \(screen): \(elements) elements")
                // What is there is a screenful or so, not the whole matrix.
                let cells = try #require(page.number("cells"))
                #expect(cells > 0 && cells < 2_000, "\(screen): \(cells) cells in the document")
                #expect(page.number("strips") == Double(2 * size + 1), "a strip (built or not) per channel and the master")
                #expect((page.number("built_strips") ?? 0) < 60, "\(screen): only strips near view are built: \(page)")
                #expect(page.number("dca_strips") == 8, "and a strip per DCA (the default 8), all built")
                // Column heads read horizontally, the number at 15 px and the name at 14 px.
                #expect(page.string("col_head_writing_mode") == "horizontal-tb")
                #expect((page.number("col_head_font_px") ?? 0) >= 14)
                #expect((page.number("col_head_name_font_px") ?? 0) >= 13)
                #expect((page["console_errors"] as? [Any])?.isEmpty == true, "\(page)")
            }
        }
    }

    @Test func aCellFarOffScreenIsReachedByKeyboardAndToggled() async throws {
        try await withRig(inputs: 256, outputs: 256) { rig in
            let page = try await Self.run("far-cell", rig, inputs: 256, outputs: 256)
            #expect(page.string("steps", "start", "focused") == "/matrix/1/1", "\(page)")
            #expect(page.string("steps", "end", "focused") == "/matrix/1/256")
            #expect(page.string("steps", "left", "focused") == "/matrix/1/250")
            #expect(page.string("steps", "down", "focused") == "/matrix/200/250")
            for step in ["end", "left", "down"] {
                #expect(page.flag("steps", step, "focused_in_view"), "\(step): the view followed the focus: \(page)")
                #expect((page.number("steps", step, "elements") ?? .infinity) <= 10_000)
            }
            #expect(page.string("target") == "/matrix/200/250")
            #expect(page.flag("pressed"), "\(page)")
            #expect(try await Page.query(rig, "/matrix/200/250") == .float(1))
            #expect(try await Page.query(rig, "/matrix/200/249") == .float(0), "its neighbour unchanged")
            #expect(try await Page.query(rig, "/matrix/1/1") == .float(1), "where it started unchanged")
        }
    }

    @Test func theOverviewTheJumpAndTheFiltersFindACrosspoint() async throws {
        try await withRig(inputs: 256, outputs: 256) { rig in
            try await rig.sendAndSettle("/source/200/name", .string("Bass DI"))
            let page = try await Self.run("find", rig, inputs: 256, outputs: 256)
            #expect(page["before", "overview_hidden"] as? Bool == false, "the overview is shown at 256x256: \(page)")
            print("note: the overview's taps: \(String(describing: page["overview", "taps"]))")
            #expect(page.number("overview", "heard") == 1, "the overview heard one tap: \(page)")
            #expect(page.flag("overview", "corner_cell"), "a tap on the overview's corner shows /matrix/256/256: \(page)")
            #expect((page.number("overview", "scroll") ?? 0) >= 0)
            #expect(page.string("not_found", "text") == #"No input "nosuch""#, "\(page)")
            #expect(page.flag("not_found", "marked"))
            #expect(page.string("jump", "focused") == "/matrix/200/250", "jump to 'bass' and 250: \(page)")
            #expect(page.flag("jump", "focused_in_view"))
            #expect(page.string("filter", "shown") == "1x256", "the filter keeps 'Bass DI' alone: \(page)")
            #expect(page["filter", "rows"] as? [Int] == [200])
        }
    }

    @Test func anUnreadablePresetIsMarkedAndNotRecalled() async throws {
        try await withRig(inputs: 2, outputs: 2) { rig in
            try rig.osc.send("/preset/save", .string("good"))
            _ = try await rig.osc.waitFor(address: "/preset/saved", timeout: .seconds(5))
            let broken = rig.presets.appendingPathComponent("broken.json")
            try Data(#"{"version": 1, "sources": ["#.utf8).write(to: broken)
            // The rig names it, with the file's error.
            _ = try rig.osc.drain()
            try rig.osc.send("/preset/unreadable")
            let reply = try await rig.osc.waitFor(address: "/preset/unreadable", timeout: .seconds(5))
            #expect(reply.argument(0) == .string("broken"), "\(reply)")
            #expect(reply.argument(1)?.stringValue?.contains("broken.json") == true, "\(reply)")
            #expect(reply.argument(2) == nil, "the good preset is not named")

            let page = try await Self.run("unreadable", rig, inputs: 2, outputs: 2)
            #expect(page.flag("marked", "unreadable"), "\(page)")
            #expect(page.string("marked", "disabled") == "true")
            #expect(page.string("marked", "tip_role") == "tooltip")
            #expect(page.string("marked", "tip")?.contains("broken.json") == true, "\(page)")
            #expect(!page.flag("before_focus", "tip_shown"), "the error shows on hover or focus, not always")
            #expect(page.flag("on_focus", "tip_shown"), "\(page)")
            #expect(!page.flag("good", "unreadable"))
            #expect(page.string("good", "disabled") == nil)
            // The click recalled nothing: the current preset is still the saved one.
            #expect((page["current"] as? [Any])?.first as? String == "good", "\(page)")
        }
    }
}
}
