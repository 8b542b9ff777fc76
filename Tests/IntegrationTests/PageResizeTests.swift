import Foundation
import Testing

/// The control page while the rig changes its number of sources and outputs
/// (issue 24): strips, matrix rows and columns and the personal mix follow
/// without a reload, whoever changed the size, and the engineer's page has
/// "− N +" controls for it, removal after a confirmation.
/// `tools/page/resize_check.py` drives a real headless Chromium against the
/// real rig and changes the size over OSC from a client of its own; these
/// tests assert on its JSON report and on the rig over OSC.
extension Integration {
@Suite struct PageResizeTests {
    typealias Page = PageTests

    static func run(_ scenario: String, _ rig: CrosspointRig) async throws -> Page.PageReport {
        try await Page.runPage(scenario, rig: rig, driver: "resize_check.py")
    }

    /// Channel numbers in the report (`sources`, `rows`, …).
    static func numbers(_ value: Any?) -> [Int] {
        (value as? [Any])?.compactMap { ($0 as? NSNumber)?.intValue } ?? []
    }

    static func size(_ rig: CrosspointRig, _ axis: String) async throws -> Int? {
        try await Page.query(rig, "/rig/\(axis)")?.intValue
    }

    @Test func thePageFollowsASizeChangedOverOSCWithoutAReloadKeepingFocusAndScroll() async throws {
        try await withRig(inputs: 8, outputs: 24) { rig in
            let page = try await Self.run("follow", rig)
            #expect(page.flag("loaded"), "\(page)")
            let rowScroll = try #require(page.number("before", "outputs_scroll"))
            #expect(rowScroll > 0, "the outputs row scrolled: \(page)")
            #expect(page.number("before", "matrix_scroll") == 200, "the matrix scrolled: \(page)")

            // /rig/inputs 9 from another client: source 9's strip and matrix row, nothing rebuilt.
            #expect(Self.numbers(page["grown", "sources"]) == Array(1...9), "\(page)")
            #expect(Self.numbers(page["grown", "rows"]) == Array(1...9))
            #expect(Self.numbers(page["grown", "row_heads"]).contains(9), "row 9's head is in the document")
            #expect(page.string("grown", "cell") == "false", "a new source has no crosspoint: \(page)")
            #expect(page.string("grown", "size") == "9x24")
            #expect(page.string("grown", "counts", "inputs") == "9")
            #expect(!page.flag("grown", "reloaded"), "no reload")
            #expect(page.flag("grown", "strip_kept"), "source 2's strip is the same element")
            #expect(page.string("grown", "focused") == "/source/2/fader", "the focus stays: \(page)")
            #expect(page.number("grown", "outputs_scroll") == rowScroll)
            #expect(page.number("grown", "matrix_scroll") == 200)

            // /rig/outputs 23: output 24's strip and column go; the master stays last.
            #expect(Self.numbers(page["shrunk", "outputs"]) == Array(1...23), "\(page)")
            #expect(Self.numbers(page["shrunk", "cols"]) == Array(1...23))
            #expect(!Self.numbers(page["shrunk", "col_heads"]).contains(24))
            #expect(page.flag("shrunk", "last_output_strip"), "the master is the last strip")
            #expect(page.string("shrunk", "size") == "9x23")
            #expect(page.string("shrunk", "counts", "outputs") == "23")
            #expect(!page.flag("shrunk", "reloaded"))
            #expect(page.flag("shrunk", "strip_kept"))
            #expect(page.string("shrunk", "focused") == "/source/2/fader")
            #expect(page.number("shrunk", "outputs_scroll") == rowScroll)
            #expect(page.number("shrunk", "matrix_scroll") == 200)

            #expect(try await Self.size(rig, "inputs") == 9)
            #expect(try await Self.size(rig, "outputs") == 23)
            #expect((page["console_errors"] as? [Any])?.isEmpty == true, "\(page)")
        }
    }

    @Test func thePagesControlsAddAtOnceAndRemoveAfterAConfirmation() async throws {
        try await withRig(inputs: 8, outputs: 8) { rig in
            let page = try await Self.run("controls", rig)
            #expect(page.flag("loaded"), "\(page)")
            let controls = (page["controls"] as? [[String: Any]]) ?? []
            let labels = Set(controls.compactMap { $0["label"] as? String })
            #expect(labels == ["Add a source", "Remove source 8", "Add an output", "Remove output 8"], "\(controls)")
            #expect(controls.allSatisfy { $0["tag"] as? String == "BUTTON" && $0["disabled"] as? Bool == false })
            #expect(Set(controls.compactMap { $0["address"] as? String }) == ["/rig/inputs", "/rig/outputs"])
            #expect(Set(controls.compactMap { $0["head"] as? String }) == ["sources", "outputs"], "in the section heads")
            #expect(Set(controls.compactMap { $0["group"] as? String }) == ["Number of sources", "Number of outputs"])

            // Adding does not ask.
            #expect(page.number("add_rig") == 9, "the rig has 9 sources: \(page)")
            #expect(Self.numbers(page["added", "sources"]) == Array(1...9))
            #expect(Self.numbers(page["added", "rows"]) == Array(1...9))

            // Removing asks first, naming what goes; Escape removes nothing.
            #expect(page.string("source", "label") == "Remove source 9", "\(page)")
            #expect(page.string("source", "asked", "role") == "alertdialog")
            #expect(page.flag("source", "asked", "modal"))
            #expect(page.string("source", "asked", "text") == "Remove source 9 (Guest mic)? Its routing goes with it.")
            #expect(page.string("source", "asked", "focused") == "Cancel", "the safe choice is focused first")
            #expect(page.number("source", "unconfirmed", "rig") == 9, "nothing removed before the confirmation")
            #expect(page.flag("source", "unconfirmed", "strip"))
            #expect(page.flag("source", "cancelled", "closed"))
            #expect(page.number("source", "cancelled", "rig") == 9, "Escape removed nothing")
            #expect(page.flag("source", "cancelled", "strip"))
            #expect(page.string("source", "cancelled", "focused_label") == "Remove source 9", "the focus back on −")
            // Confirmed: the rig, then the page.
            #expect(page.number("source", "rig") == 8, "\(page)")
            #expect(Self.numbers(page["source", "after", "sources"]) == Array(1...8))
            #expect(Self.numbers(page["source", "after", "rows"]) == Array(1...8))
            #expect(page.string("source", "after", "focused_label") == "Remove source 8")
            #expect(!page.flag("source", "open_after"))

            // The same for outputs.
            #expect(page.number("add_output_rig") == 9, "\(page)")
            #expect(Self.numbers(page["added_output", "outputs"]) == Array(1...9))
            #expect(Self.numbers(page["added_output", "cols"]) == Array(1...9))
            #expect(page.string("output", "asked", "text") == "Remove output 9 (Side fill)? Its routing goes with it.",
                    "\(page)")
            #expect(page.number("output", "cancelled", "rig") == 9)
            #expect(page.number("output", "rig") == 8)
            #expect(Self.numbers(page["output", "after", "outputs"]) == Array(1...8))
            #expect(Self.numbers(page["output", "after", "cols"]) == Array(1...8))

            // A size the rig refuses: its /error beside the button, the size unchanged.
            #expect(page.string("note", "text")?.isEmpty == false, "\(page)")
            #expect(page.flag("note", "beside"))
            #expect(page.number("refused_rig") == 8)
            #expect(page.string("final", "size") == "8x8")
            #expect(try await Self.size(rig, "inputs") == 8)
            #expect(try await Self.size(rig, "outputs") == 8)
        }
    }

    @Test func aRemovedStripIsGoneAndWhatThePageHeldOfItDoesNotComeBack() async throws {
        try await withRig(inputs: 8, outputs: 8) { rig in
            let page = try await Self.run("forget", rig)
            #expect(page.flag("loaded"), "\(page)")
            #expect(page.string("linked", "linked") == "1", "7-8 linked before: \(page)")

            // /rig/inputs 7: strip 8 and its row gone, strip 7 a strip of its own.
            #expect(Self.numbers(page["shrunk", "sources"]) == Array(1...7), "\(page)")
            #expect(Self.numbers(page["shrunk", "rows"]) == Array(1...7))
            #expect(page.string("alone", "linked") != "1", "\(page)")
            #expect(page["alone", "hidden"] as? Bool == false)
            #expect(page.string("alone", "label") == "Source 7")
            #expect(page.string("alone", "partner_meter") == "none", "one meter: \(page)")
            #expect(page["gone", "strip"] as? Bool == false, "strip 8 is not in the document: \(page)")
            #expect(page.number("gone", "controls") == 0, "no control of source 8 or its crosspoints")
            #expect(page["gone", "meter"] as? Bool == false)
            #expect(page["gone", "row_head"] as? Bool == false)
            #expect((page["gone", "stored"] as? [Any])?.isEmpty == true, "the store holds nothing of source 8: \(page)")

            // /rig/inputs 8: the rig's new source 8, not the one removed.
            #expect(Self.numbers(page["grown", "sources"]) == Array(1...8))
            let name = page.string("rig", "name")
            #expect(name != "Guest mic", "the rig's new source has its defaults: \(page)")
            #expect(page.string("back", "name") == name, "the page shows the rig's name: \(page)")
            #expect(page["back", "hidden"] as? Bool == false)
            #expect(page.string("back", "linked") != "1")
            #expect(page.string("strip7", "linked") != "1", "7 is not shown linked to the new 8: \(page)")
            #expect(page.number("rig", "crosspoint") == 0)
            #expect(page.string("cell") == "false", "no crosspoint shown for the new source 8")
            #expect((page["console_errors"] as? [Any])?.isEmpty == true, "\(page)")
        }
    }

    @Test func thePersonalMixFollowsTheRigsSize() async throws {
        try await MixPageTests.withAccessRig { rig, _ in
            let page = try await Self.run("mix", rig)
            #expect(page.flag("loaded"), "\(page)")
            #expect(page.number("before", "size_controls") == 0, "a performer has no size controls: \(page)")
            #expect(page.string("before", "view") == "mix")
            let grown = Set((page["grown", "faders"] as? [String]) ?? [])
            #expect(grown.isSuperset(of: ["/matrix/9/5/fader", "/matrix/9/6/fader"]), "a fader for source 9: \(page)")
            #expect(Self.numbers(page["shrunk", "sections"]) == [5], "output 6 is gone: \(page)")
            #expect(Self.numbers(page["back", "sections"]) == [5, 6], "and back: \(page)")
            #expect(!page.flag("back", "reloaded"))
            #expect(page.number("back", "size_controls") == 0)
            #expect(try await Self.size(rig, "outputs") == 8)
        }
    }
}
}
