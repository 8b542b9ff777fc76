import Catalogue
import Foundation
import Testing

/// Every address the rig sends or takes is in a table (issue 33): the
/// catalogue's parameters, its commands (`Command.Name`, whose answers come
/// at their own addresses) and its replies (`Reply.Name`). The control code
/// writes none as a literal, as `PageReplyTests` holds the page to.
@Suite struct AddressLiteralTests {
    /// The modules that send and take OSC on the rig's behalf.
    static let controlModules = ["RigControl", "Presets", "Bench"]

    static var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
    }

    /// A string literal that starts like an OSC address (`"/late"`,
    /// `"/preset/recall/\(name)"`), outside comments.
    static func literals(in text: String) -> [String] {
        let pattern = try! Regex(#""/[a-z][a-z_]*(/[^"\s]*)?""#)
        return text.split(separator: "\n").flatMap { line -> [String] in
            let code = line.firstRange(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
            return code.matches(of: pattern).map { String(code[$0.range]) }
        }
    }

    @Test func theControlCodeWritesNoAddressOfItsOwn() throws {
        var found: [String] = []
        var files = 0
        for module in Self.controlModules {
            let folder = Self.sources.appendingPathComponent(module)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift") {
                files += 1
                let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                found += Self.literals(in: text).map { "\(module)/\(name): \($0)" }
            }
        }
        #expect(files > 40, "the sources were read (\(files) files)")
        #expect(found.isEmpty, "address literals outside the tables: \(found)")
    }

    /// The test's own eye: it sees a literal where there is one.
    @Test func aLiteralIsSeenAndACommentIsNot() {
        #expect(Self.literals(in: #"let m = OSCMessage("/late", [])"#) == [#""/late""#])
        #expect(Self.literals(in: #"x = "/preset/recall/\(name)""#) == [#""/preset/recall/\(name)""#])
        #expect(Self.literals(in: #"// OSCMessage("/late")"#).isEmpty)
        #expect(Self.literals(in: #"let path = "proc/self""#).isEmpty)
    }

    @Test func everyReplyTheRigSendsOnItsOwnIsInTheTable() {
        for name in ["/late", "/preset/skipped", "/preset/undone", "/status/state_note", "/status/state_saved"] {
            #expect(Reply.Name(rawValue: name) != nil, "\(name)")
        }
    }
}
