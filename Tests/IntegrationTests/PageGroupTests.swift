import Foundation
import Testing

/// The control page's groups (issue 25, docs/page.md "Groups"): the DCA
/// strips and the mute-group row, each source's memberships, and the mark
/// of a source its groups mute. `tools/page/group_check.py` drives a real
/// headless Chromium against the real rig (changes from another client over
/// OSC); these tests assert on its JSON report and on the rig over OSC.
extension Integration {
@Suite struct PageGroupTests {
    typealias Page = PageTests

    static func run(_ scenario: String, _ rig: CrosspointRig) async throws -> Page.PageReport {
        try await Page.runPage(scenario, rig: rig, driver: "group_check.py")
    }

    /// An object of the report (`strips`, a strip, …) as a dictionary.
    static func object(_ value: Any?) -> [String: Any] { value as? [String: Any] ?? [:] }

    /// The addresses of a list of controls in the report.
    static func addresses(_ value: Any?) -> [String] {
        (value as? [[String: Any]] ?? []).compactMap { $0["address"] as? String }
    }

    @Test func aDCAFaderMovedWithTheKeyboardMovesTheRigsDCA() async throws {
        try await withRig(inputs: 4, outputs: 2) { rig in
            let page = try await Self.run("dca-keyboard", rig)
            #expect(page.flag("loaded"), "\(page)")

            // A strip per DCA (the rig's default 8), built from the catalogue: name, mute, safe, fader, no meter.
            let strips = (page["built", "dca_strips"] as? [[String: Any]]) ?? []
            #expect(strips.compactMap { $0["group"] as? String } == (1...8).map(String.init), "\(page)")
            #expect(strips.first?["label"] as? String == "DCA 1")
            #expect(Set(strips.first?["addresses"] as? [String] ?? [])
                    == ["/dca/1/name", "/dca/1/mute", "/safe/dca/1", "/dca/1/fader"], "\(strips.first ?? [:])")
            #expect(strips.allSatisfy { ($0["meters"] as? Int) == 0 }, "a DCA has no signal to meter")
            #expect(page.flag("built", "section") && page.flag("built", "dcas_shown") && page.flag("built", "mutegroups_shown"))
            #expect(page.flag("built", "link"), "the Groups link in the status bar")

            // A row of mute-group buttons: switches named by their groups' names (the rig's defaults).
            let buttons = (page["built", "mutegroups"] as? [[String: Any]] ?? []).filter { $0["role"] as? String == "switch" }
            #expect(Self.addresses(buttons) == (1...8).map { "/mutegroup/\($0)/mute" }, "\(page)")
            #expect(buttons.allSatisfy { $0["checked"] as? String == "false" && $0["tabindex"] as? String == "0" })
            #expect(page.string("mute_names", "/mutegroup/1/mute", "name") == "mutegroup_1", "\(page)")
            #expect(page.string("mute_names", "/mutegroup/1/mute", "role") == "switch")
            #expect(Self.addresses(page["built", "mutegroups"]).contains("/mutegroup/1/name"), "its name's field")

            // The same fader as a source's: keyboard steps and a dB readout.
            #expect(page.string("fader_name", "name") == "DCA 1 level", "\(page)")
            #expect(page.string("fader_name", "role") == "slider")
            #expect(Page.close(page.number("before"), 0.75))
            #expect(Page.close(page.number("after_arrows"), 0.70), "\(page)")
            #expect(Page.close(page.number("after"), 0.5))
            #expect(page.string("valuetext") == "-10.0 dB")
            #expect(page.string("focused") == "/dca/1/fader")
            let db = try #require(try await Page.query(rig, "/dca/1/db")?.floatValue)
            #expect(abs(db + 10) < 1e-3, "the rig's DCA 1 at -10 dB: \(db)")
            #expect(try await Page.query(rig, "/dca/2/db")?.floatValue == 0, "DCA 2 unchanged")
            #expect(try await Page.query(rig, "/source/1/fader")?.floatValue == 0.75, "no source fader moved")
            #expect((page["console_errors"] as? [Any])?.isEmpty == true, "\(page)")
        }
    }

    @Test func aMuteGroupButtonMutesTheGroupAndMarksItsMembersButNotTheirOwnMutes() async throws {
        try await withRig(inputs: 4, outputs: 2) { rig in
            let page = try await Self.run("mute-group", rig)
            #expect(page.flag("loaded"), "\(page)")
            #expect(page.string("before", "name", "name") == "Vocals", "the button named by its group: \(page)")
            #expect(page.string("before", "button") == "false")
            for n in 1...4 {
                #expect(page.string("before", "strips", "\(n)", "group_muted") == "0", "strip \(n) before: \(page)")
                #expect(page["before", "strips", "\(n)", "badge_shown"] as? Bool == false)
            }

            // A click: the rig's mute group muted; members 1 and 3 marked, in words; their own mutes off.
            #expect(page.number("muted", "rig") == 1, "\(page)")
            #expect(page.string("muted", "button") == "true")
            for n in [1, 3] {
                let strip = Self.object(page["muted", "strips", "\(n)"])
                #expect(strip["group_muted"] as? String == "1", "member \(n): \(strip)")
                #expect(strip["badge"] as? String == "Group mute: Vocals", "member \(n): \(strip)")
                #expect(strip["badge_shown"] as? Bool == true)
                #expect(strip["own_mute"] as? String == "false", "its own mute stays off: \(strip)")
            }
            for n in [2, 4] {
                let strip = Self.object(page["muted", "strips", "\(n)"])
                #expect(strip["group_muted"] as? String == "0", "non-member \(n): \(strip)")
                #expect(strip["badge_shown"] as? Bool == false)
            }
            #expect(page.number("muted", "rig_own_mute") == 0)
            #expect(page.number("muted", "rig_own_mute_3") == 0)

            // Space on it again: unmuted, the marks gone.
            #expect(page.number("unmuted", "rig") == 0, "\(page)")
            #expect(page.string("unmuted", "button") == "false")
            for n in 1...4 {
                #expect(page.string("unmuted", "strips", "\(n)", "group_muted") == "0", "strip \(n): \(page)")
                #expect(page["unmuted", "strips", "\(n)", "badge_shown"] as? Bool == false)
            }

            // A DCA's mute (its strip's M) marks its member, named by the DCA.
            #expect(page.number("dca", "rig") == 1, "\(page)")
            #expect(page.string("dca", "strips", "2", "group_muted") == "1")
            #expect(page.string("dca", "strips", "2", "badge") == "Group mute: Band")
            #expect(page.string("dca", "strips", "2", "own_mute") == "false")
            #expect(page.string("dca", "strips", "1", "group_muted") == "0", "not a member of DCA 2")
            #expect(page.number("dca", "rig_own_mute") == 0)
            #expect(page.number("dca_off", "rig") == 0)
            #expect(page.string("dca_off", "strips", "2", "group_muted") == "0", "\(page)")

            #expect(try await Page.query(rig, "/mutegroup/1/mute")?.intValue == 0)
            #expect(try await Page.query(rig, "/source/1/mutegroup/1")?.intValue == 1, "memberships unchanged")
            #expect(try await Page.query(rig, "/source/1/mute")?.intValue == 0)
            #expect((page["console_errors"] as? [Any])?.isEmpty == true, "\(page)")
        }
    }

    @Test func aMembershipToggleOnASourceStripSetsTheRigsMembership() async throws {
        try await withRig(inputs: 4, outputs: 2) { rig in
            let page = try await Self.run("membership", rig)
            #expect(page.flag("loaded"), "\(page)")
            // Closed at first: one disclosure, no switch built.
            #expect(page["closed", "groups_shown"] as? Bool == true, "\(page)")
            #expect(page["closed", "groups_open"] as? Bool == false)
            #expect((page["closed", "switches"] as? [Any])?.isEmpty == true, "no switch until it opens")
            #expect(page.flag("summary_focused"), "the summary takes the focus")

            // Opened with Enter: a switch per DCA and per mute group, named by the catalogue's titles.
            #expect(page["opened", "groups_open"] as? Bool == true)
            let switches = page["opened", "switches"] as? [String] ?? []
            #expect(switches == (1...8).map { "/source/3/dca/\($0)" } + (1...8).map { "/source/3/mutegroup/\($0)" },
                    "\(page)")
            #expect(page.string("switch_names", "/source/3/dca/2", "name") == "Source 3 in DCA 2", "\(page)")
            #expect(page.string("switch_names", "/source/3/mutegroup/1", "name") == "Source 3 in mute group 1")
            #expect(page.string("switch_names", "/source/3/dca/2", "role") == "switch")
            #expect(page.string("tabbed") == "/source/3/dca/1", "Tab from the summary reaches the first switch")

            // Space and a click: the rig's memberships, and nothing else's.
            #expect(page.number("rig", "dca") == 1, "\(page)")
            #expect(page.number("rig", "mutegroup") == 1)
            #expect(page.number("rig", "other") == 0)
            #expect(page.number("rig", "source_4") == 0)
            #expect(page.string("checked", "/source/3/dca/2") == "true")
            #expect(page.string("checked", "/source/3/mutegroup/1") == "true")
            #expect(page.string("checked", "/source/3/dca/1") == "false")
            #expect(page.string("after", "summary")?.hasSuffix("(2)") == true, "the summary counts 2: \(page)")
            #expect(try await Page.query(rig, "/source/3/dca/2")?.intValue == 1)
            #expect(try await Page.query(rig, "/source/3/mutegroup/1")?.intValue == 1)
            #expect(try await Page.query(rig, "/source/3/dca/3")?.intValue == 0)
        }
    }

    @Test func groupChangesFromAnotherClientShowWithoutAReload() async throws {
        try await withRig(inputs: 4, outputs: 2) { rig in
            let page = try await Self.run("osc-to-page", rig)
            #expect(page.flag("loaded"), "\(page)")
            #expect(page.string("before", "button") == "false")
            #expect(page.string("before", "strip", "group_muted") == "0")
            #expect(page.flag("seen"), "\(page)")
            #expect(page.string("after", "button") == "true")
            #expect(page.string("after", "button_name", "name") == "Horns", "renamed live: \(page)")
            #expect(page.string("after", "dca_name") == "Drums")
            #expect(Page.close(page.number("after", "dca_fader"), 0.5))
            #expect(page.string("after", "dca_valuetext") == "-10.0 dB")
            #expect(page.string("after", "strips", "4", "group_muted") == "1")
            #expect(page.string("after", "strips", "4", "badge") == "Group mute: Horns")
            #expect(page.string("after", "strips", "4", "own_mute") == "false")
            for n in 1...3 {
                #expect(page.string("after", "strips", "\(n)", "group_muted") == "0", "strip \(n) is no member")
            }
            #expect(!page.flag("after", "reloaded"), "no reload")
            // Leaving the group clears the mark, the group still muted.
            #expect(page.string("left", "group_muted") == "0", "\(page)")
            #expect(page["left", "badge_shown"] as? Bool == false)
            #expect(page.number("rig", "mute") == 1)
            #expect(page.number("rig", "own_mute") == 0)
            #expect(try await Page.query(rig, "/dca/1/name") == .string("Drums"))
            #expect((page["console_errors"] as? [Any])?.isEmpty == true, "\(page)")
        }
    }

    @Test func aRigWithoutGroupsShowsNoGroupControls() async throws {
        try await withRig(inputs: 4, outputs: 2, arguments: ["--dcas", "0", "--mute-groups", "0"]) { rig in
            let page = try await Self.run("none", rig)
            #expect(page.flag("loaded"), "\(page)")
            #expect(page.number("rig", "dcas") == 0 && page.number("rig", "mute_groups") == 0, "\(page)")
            #expect(page.flag("heard"), "the page heard the rig's counts")
            #expect(page["built", "section"] as? Bool == false, "no Groups section: \(page)")
            #expect(page["built", "link"] as? Bool == false)
            #expect((page["built", "dca_strips"] as? [Any])?.isEmpty == true)
            #expect((page["built", "dcas"] as? [Any])?.isEmpty == true)
            #expect((page["built", "mutegroups"] as? [Any])?.isEmpty == true)
            #expect((page["built", "safes"] as? [Any])?.isEmpty == true)
            #expect((page["built", "memberships"] as? [Any])?.isEmpty == true)
            #expect((page["forced"] as? [Any])?.isEmpty == true, "nothing in a disclosure forced open: \(page)")
            let strips = Self.object(page["strips"])
            #expect(strips.count == 4, "\(page)")
            for (n, value) in strips {
                let strip = Self.object(value)
                #expect(strip["groups_shown"] as? Bool == false, "strip \(n) shows no Groups: \(strip)")
                #expect(strip["group_muted"] as? String == "0")
            }
            #expect((page["console_errors"] as? [Any])?.isEmpty == true, "\(page)")
        }
    }
}
}
