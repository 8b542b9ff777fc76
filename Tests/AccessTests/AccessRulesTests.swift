import JSON
import Access
import Foundation
import OSC
import Testing

/// The access file is read as strictly as a preset: every mistake is named
/// by file and field, and nothing of a broken file is used.
@Suite struct AccessRulesTests {
    static let example = """
        {
          "version": 1,
          "roles": {
            "engineer": { "control": "all" },
            "drums":    { "control": { "outputs": [6, 5] } },
            "viewer":   { "control": "none" }
          },
          "clients": [
            { "from": "127.0.0.0/8",    "role": "engineer" },
            { "from": "127.0.0.3/32",   "role": "viewer" },
            { "from": "192.168.1.0/24", "role": "viewer" },
            { "code": "4711",           "role": "drums" }
          ]
        }
        """

    static func rules(_ text: String, outputs: Int = 8) throws(FileError) -> AccessRules {
        try AccessRules.decode(Data(text.utf8), file: "access.json", outputs: outputs)
    }

    static func problem(_ text: String, outputs: Int = 8) -> String? {
        do {
            _ = try rules(text, outputs: outputs)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func theExampleReadsAndTheMostSpecificNetworkWins() throws {
        let rules = try Self.rules(Self.example)
        #expect(rules.role(for: [127, 0, 0, 2])?.name == "engineer")
        #expect(rules.role(for: [127, 0, 0, 3])?.name == "viewer")
        #expect(rules.role(for: [192, 168, 1, 40])?.name == "viewer")
        #expect(rules.role(for: [10, 0, 0, 1]) == nil)
        #expect(rules.role(forCode: "4711") == Role(name: "drums", control: .outputs([5, 6])))
        #expect(rules.role(forCode: "471") == nil)
        #expect(rules.role(forCode: "47111") == nil)
        #expect(rules.role(forCode: "") == nil)
        #expect(rules.policy.access(for: [127, 0, 0, 9]) == .full)
        #expect(rules.policy.access(for: [10, 0, 0, 1]) == .denied)
    }

    @Test func everyMistakeIsNamedByFileAndField() {
        func replacing(_ a: String, _ b: String) -> String { Self.example.replacingOccurrences(of: a, with: b) }
        let cases: [(String, String)] = [
            (replacing("\"version\": 1", "\"version\": 2"), "access.json: version: version 2 is not readable"),
            (replacing("\"version\": 1,", "\"version\": 1, \"extra\": 0,"), "access.json: extra: unknown field"),
            (replacing("\"role\": \"drums\"", "\"role\": \"bass\""), "access.json: clients[3].role: unknown role 'bass'"),
            (replacing("[6, 5]", "[6, 9]"), "access.json: roles.drums.control.outputs[1]: 9 is out of range 1 to 8"),
            (replacing("[6, 5]", "[6, 6]"), "access.json: roles.drums.control.outputs[1]: output 6 given twice"),
            (replacing("[6, 5]", "[]"), "access.json: roles.drums.control.outputs: no outputs"),
            (replacing("192.168.1.0/24", "192.168.1.0/33"), "access.json: clients[2].from: '192.168.1.0/33' is not an IPv4 or IPv6 network"),
            (replacing("\"none\"", "\"some\""), "access.json: roles.viewer.control: 'some' is not a control"),
            (replacing("[6, 5] } }", "[6, 5] }, \"talkbacks\": [9] }"), "access.json: roles.drums.talkbacks[0]: 9 is out of range 1 to 8"),
            (replacing("[6, 5] } }", "[6, 5] }, \"talkbacks\": [2, 2] }"), "access.json: roles.drums.talkbacks[1]: talkback 2 given twice"),
            (replacing("[6, 5] } }", "[6, 5] }, \"listen\": \"yes\" }"), "access.json: roles.drums.listen: expected"),
            (replacing("\"none\"", "3"), "access.json: roles.viewer.control: expected \"all\", \"none\""),
            (replacing("{ \"control\": \"all\" }", "{ \"control\": \"all\", \"x\": 1 }"), "access.json: roles.engineer.x: unknown field"),
            (replacing("\"code\": \"4711\"", "\"code\": 4711"), "access.json: clients[3].code: expected a string, got a number"),
            (replacing("\"code\": \"4711\"", "\"code\": \"471\""), "access.json: clients[3].code: a code has 4 to 64 characters"),
            (replacing("\"code\": \"4711\"", "\"code\": \"4711\", \"from\": \"10.0.0.0/8\""), "access.json: clients[3]: expected exactly one of"),
            (replacing("\"code\": \"4711\",           \"role\": \"drums\" }", "\"code\": \"4711\", \"role\": \"drums\" }, { \"code\": \"4711\", \"role\": \"viewer\" }"),
             "access.json: clients[4].code: the same code as an earlier client"),
            ("{ \"version\": 1, \"roles\": { \"a\": { \"control\": \"all\" } }, \"clients\": [ { \"code\": \"4711\", \"role\": \"a\" } ] }",
             "access.json: clients: no client has a \"from\""),
            ("{ \"version\": 1, \"roles\": {}, \"clients\": [] }", "access.json: roles: no roles"),
            ("[]", "access.json: document: expected an object"),
            ("{", "access.json: not valid JSON"),
        ]
        for (text, expected) in cases {
            let problem = Self.problem(text)
            #expect(problem?.hasPrefix(expected) == true, "\(expected) — got \(problem ?? "no error")")
        }
    }

    /// A role may be granted talkbacks to talk on and its own outputs' AFL
    /// (docs/access.md): the engineer's role has both without a grant.
    @Test func aRoleMayBeGrantedTalkbacksAndTheListen() throws {
        let text = Self.example.replacingOccurrences(of: "[6, 5] } }", with: "[6, 5] }, \"talkbacks\": [2], \"listen\": true }")
        let drums = try #require(try Self.rules(text).role(forCode: "4711"))
        #expect(drums.talkbacks == [2] && drums.listens)
        #expect(drums.talks(on: 2) && !drums.talks(on: 1))
        #expect(drums.listens(to: 5) && !drums.listens(to: 1))
        let plain = try #require(try Self.rules(Self.example).role(forCode: "4711"))
        #expect(!plain.talks(on: 2) && !plain.listens(to: 5), "nothing unless granted")
        #expect(Role.full.talks(on: 1) && Role.full.listens(to: 1))
    }

    @Test func aCodeNeverAppearsInAnError() {
        let text = Self.example.replacingOccurrences(of: "\"code\": \"4711\"", with: "\"code\": \"secret\\u0001code\"")
        let problem = Self.problem(text)
        #expect(problem?.contains("control character") == true)
        #expect(problem?.contains("secret") == false)
    }

    @Test func fiveWrongCodesInAMinuteLockAHostOutForAMinute() {
        var attempts = LoginAttempts()
        let start = ContinuousClock.now
        let host: [UInt8] = [127, 0, 0, 2]
        for second in 0..<4 {
            let refusal = attempts.refusal(for: host, at: start + .seconds(second))
            #expect(refusal == nil)
            let outcome = attempts.wrong(from: host, at: start + .seconds(second))
            #expect(outcome == .counted)
        }
        let fifth = attempts.wrong(from: host, at: start + .seconds(4))
        #expect(fifth == .hostLocked)
        let left = attempts.refusal(for: host, at: start + .seconds(5))
        #expect(left == .host(.seconds(59)))
        let other = attempts.refusal(for: [127, 0, 0, 3], at: start + .seconds(5))
        #expect(other == nil)
        let later = attempts.refusal(for: host, at: start + .seconds(64))
        #expect(later == nil)
        // Wrong codes spread over more than a minute never lock.
        var slow = LoginAttempts()
        for step in 0..<10 {
            let outcome = slow.wrong(from: host, at: start + .seconds(step * 16))
            #expect(outcome == .counted)
        }
    }

    @Test func manyHostsTogetherLockEveryoneOutAndAnIPv6HostCountsByItsSlash64() {
        var attempts = LoginAttempts()
        let start = ContinuousClock.now
        for n in 0..<(LoginAttempts.networkLimit - 1) {
            let outcome = attempts.wrong(from: [10, 0, UInt8(n / 200), UInt8(n % 200)], at: start)
            #expect(outcome == .counted)
        }
        let last = attempts.wrong(from: [10, 9, 9, 9], at: start + .seconds(1))
        #expect(last == .networkLocked)
        let anyone = attempts.refusal(for: [10, 1, 1, 1], at: start + .seconds(2))
        #expect(anyone == .network(.seconds(58)))
        let after = attempts.refusal(for: [10, 1, 1, 1], at: start + .seconds(61))
        #expect(after == nil)

        var v6 = LoginAttempts()
        for n in 0..<5 {
            let address = [0xfd, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, UInt8(n)] as [UInt8]
            _ = v6.wrong(from: address, at: start)
        }
        let sameSlash64 = v6.refusal(for: [0xfd, 0, 0, 0, 0, 0, 0, 1, 9, 9, 9, 9, 9, 9, 9, 9], at: start)
        #expect(sameSlash64 == .host(.seconds(60)))
    }

    @Test func aCodeMatchesOnlyWhole() throws {
        let rules = try Self.rules(Self.example)
        // Lengths 256 apart must not compare equal.
        #expect(rules.role(forCode: "4711" + String(repeating: "x", count: 256)) == nil)
        #expect(rules.role(forCode: "4711\u{0}") == nil)
        #expect(rules.role(forCode: "4711")?.name == "drums")
    }

    @Test func repeatedKeysHostBitsAndRepeatedNetworksAreRefused() {
        func replacing(_ a: String, _ b: String) -> String { Self.example.replacingOccurrences(of: a, with: b) }
        let cases: [(String, String)] = [
            (replacing("\"from\": \"192.168.1.0/24\", \"role\": \"viewer\"",
                       "\"from\": \"192.168.1.0/24\", \"role\": \"viewer\", \"role\": \"engineer\""),
             "access.json: clients[2].role: given twice"),
            (replacing("\"version\": 1,", "\"version\": 1, \"version\": 1,"), "access.json: version: given twice"),
            (replacing("\"viewer\":   { \"control\": \"none\" }", "\"viewer\":   { \"control\": \"none\" }, \"viewer\": { \"control\": \"all\" }"),
             "access.json: roles.viewer: given twice"),
            (replacing("192.168.1.0/24", "192.168.1.5/24"),
             "access.json: clients[2].from: '192.168.1.5/24' has bits set past its prefix: write the network (192.168.1.0/24)"),
            (replacing("127.0.0.3/32", "127.0.0.0/8"), "access.json: clients[1].from: the same network as an earlier client"),
        ]
        for (text, expected) in cases {
            let problem = Self.problem(text)
            #expect(problem?.hasPrefix(expected) == true, "\(expected) — got \(problem ?? "no error")")
        }
        let many = "{ \"version\": 1, \"roles\": { \"a\": { \"control\": \"all\" } }, \"clients\": ["
            + (0..<1025).map { "{ \"from\": \"10.0.\($0 / 256).\($0 % 256)\", \"role\": \"a\" }" }.joined(separator: ", ") + "] }"
        #expect(Self.problem(many) == "access.json: clients: more than 1024 clients")
    }
}
