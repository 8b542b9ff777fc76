import Delivery
import Access
import Catalogue
import Foundation
import Logging
import MixCore
import SceneModel
import OSC
import Presets
@testable import RigControl
import Testing

/// Roles as the controller enforces them (docs/access.md): what a role with
/// outputs may change, what it may not, and that a refusal changes nothing.
@Suite struct RoleTests {
    static let file = """
        { "version": 1,
          "roles": { "engineer": { "control": "all" }, "drums": { "control": { "outputs": [5, 6] } },
                     "viewer": { "control": "none" } },
          "clients": [ { "from": "127.0.0.0/8", "role": "engineer" }, { "from": "127.0.0.3/32", "role": "viewer" },
                       { "from": "127.0.0.4/32", "role": "drums" }, { "code": "4711", "role": "drums" } ] }
        """

    static func controller(feedback: FeedbackHub? = nil) throws -> Controller {
        let c = makeController(inputs: 6, outputs: 6, feedback: feedback)
        c.useAccess(try AccessRules.decode(Data(file.utf8), file: "access.json", outputs: 6))
        return c
    }

    static func client(_ host: String, port: Int = 5000) -> OSCPeer {
        OSCPeer(address: SocketAddress.resolve(host: host, port: port)!)
    }

    /// What `/role` answers: the role, then the talkbacks it may talk on
    /// (none on these rigs unless told).
    static func role(_ arguments: [OSCArgument], talkbacks: String = "") -> [OSCMessage] {
        [OSCMessage("/role", arguments), OSCMessage("/role/talkbacks", [.string(talkbacks)])]
    }

    static func send(_ c: Controller, _ address: String, _ arguments: [OSCArgument], from sender: OSCPeer) -> [OSCMessage] {
        c.handle(.message(OSCMessage(address, arguments)), from: sender).flatMap(\.messages)
    }

    @Test func anOutputsRoleChangesItsMixesAndNothingElse() throws {
        let c = try Self.controller()
        let drums = Self.client("127.0.0.4")
        let allowed: [(String, [OSCArgument])] = [
            ("/matrix/1/5", [.float(0.5)]), ("/matrix/2/6/db", [.float(-6)]), ("/matrix/3/5/fader", [.float(0.5)]),
            ("/matrix/1/5/delta", [.float(0.1)]), ("/output/5/db", [.float(-3)]), ("/output/6/mute", [.int32(1)]),
            ("/output/5/delay", [.float(2)]), ("/safe/mix/5", [.int32(1)]), ("/matrix/*/6", [.float(0.25)]),
            ("/matrix/1/5", []), ("/source/1/volume", []), ("/preset/list", []), ("/status", []),
        ]
        for (address, arguments) in allowed {
            #expect(errorReason(c.handle(.message(OSCMessage(address, arguments)), from: drums)) == nil, "\(address)")
        }
        #expect(c.scene.crosspoints[1, 5] > 0.5 && c.scene.crosspoints[4, 6] == 0.25)
        let before = c.snapshot()
        let refused: [(String, [OSCArgument])] = [
            ("/matrix/1/1", [.float(0)]), ("/master/volume", [.float(0)]), ("/source/1/mute", [.int32(1)]),
            ("/preset/save", [.string("mine")]), ("/preset/recall", [.string("mine")]), ("/preset/recall/mine", []),
            ("/matrix/*/*", [.float(0)]), ("/matrix/1/{1,5}", [.float(0)]), ("/output/5/name", [.string("x")]),
            ("/output/1/db", [.float(-6)]), ("/safe/mix/1", [.int32(1)]), ("/safe/output/5", [.int32(1)]),
            ("/matrix/map", [.int32(1)]), ("/matrix/clear", []), ("/preset/undo", []), ("/matrix/1/1/delta", [.float(1)]),
        ]
        for (address, arguments) in refused {
            let replies = Self.send(c, address, arguments, from: drums)
            #expect(replies == [OSCMessage("/error", [.string(address), .string("not permitted for role drums")])], "\(address)")
        }
        #expect(c.snapshot() == before)
    }

    /// A role granted talkback 2 (issue 37) talks on 2 but not 1, changes
    /// nothing else of 2's, and puts only its own outputs in the listen.
    @Test func aRoleGrantedATalkbackTalksOnItAndListensOnlyToItsOwnOutputs() throws {
        let file = Self.file.replacingOccurrences(of: "\"drums\": { \"control\": { \"outputs\": [5, 6] } }",
                                                  with: "\"drums\": { \"control\": { \"outputs\": [5, 6] }, \"talkbacks\": [2], \"listen\": true }")
        let c = makeController(state: RigState(scene: Catalogue().scene([.source: 6, .output: 6, .talkback: 2])))
        c.useAccess(try AccessRules.decode(Data(file.utf8), file: "access.json", outputs: 6))
        let drums = Self.client("127.0.0.4")
        for (address, arguments) in [("/talkback/2/talk", [OSCArgument.int32(1)]), ("/output/5/listen", [.int32(1)])] {
            #expect(errorReason(c.handle(.message(OSCMessage(address, arguments)), from: drums)) == nil, "\(address)")
        }
        #expect(c.send("/talkback/2/talk").first?.messages.first?.arguments == [.int32(1)])
        // The page learns its talk buttons from what follows /role.
        #expect(Self.send(c, "/role", [], from: drums)
                == Self.role([.string("drums"), .string("outputs"), .int32(5), .int32(6)], talkbacks: "2"))
        #expect(Self.send(c, "/role", [], from: Self.client("127.0.0.2")) == Self.role([.string("engineer"), .string("all")],
                                                                                        talkbacks: "1,2"))
        #expect(Self.send(c, "/role", [], from: Self.client("127.0.0.3")) == Self.role([.string("viewer"), .string("none")]))
        let before = c.snapshot()
        for (address, arguments) in [("/talkback/1/talk", [OSCArgument.int32(1)]), ("/talkback/2/output/1", [.int32(1)]),
                                     ("/talkback/2/db", [.float(-6)]), ("/output/1/listen", [.int32(1)]),
                                     ("/source/1/listen", [.int32(1)]), ("/listen/mode", [.string("additive")])] {
            let replies = Self.send(c, address, arguments, from: drums)
            #expect(replies == [OSCMessage("/error", [.string(address), .string("not permitted for role drums")])], "\(address)")
        }
        #expect(c.snapshot() == before)
    }

    @Test func theMostSpecificNetworkGivesTheRole() throws {
        let c = try Self.controller()
        #expect(Self.send(c, "/role", [], from: Self.client("127.0.0.2")) == Self.role([.string("engineer"), .string("all")]))
        #expect(Self.send(c, "/role", [], from: Self.client("127.0.0.3")) == Self.role([.string("viewer"), .string("none")]))
        #expect(Self.send(c, "/role", [], from: Self.client("127.0.0.4"))
                == Self.role([.string("drums"), .string("outputs"), .int32(5), .int32(6)]))
        let viewer = Self.client("127.0.0.3")
        #expect(Self.send(c, "/matrix/1/5", [.float(0)], from: viewer)
                == [OSCMessage("/error", [.string("/matrix/1/5"), .string("not permitted for role viewer")])])
        #expect(Self.send(c, "/status", [], from: viewer).last == OSCMessage("/status/access", [.string("read-only")]))
        #expect(Self.send(c, "/status", [], from: Self.client("127.0.0.4")).last == OSCMessage("/status/access", [.string("outputs")]))
        #expect(Self.send(c, "/matrix/1/1", [.float(0.5)], from: Self.client("127.0.0.2")) == [])
    }

    @Test func aCodeGivesItsRoleToOneSessionUntilLogout() throws {
        let c = try Self.controller()
        let later = Collected<OSCPacket>()
        c.relay.send { packet, _ in later.append(packet) }
        let viewer = Self.client("127.0.0.3", port: 6000)
        let drums = Self.role([.string("drums"), .string("outputs"), .int32(5), .int32(6)])
        #expect(Self.send(c, "/login", [.string("4711")], from: viewer) == drums)
        #expect(Self.send(c, "/matrix/1/5", [.float(0.5)], from: viewer) == [])
        // Another session from the same host is still a viewer.
        #expect(Self.send(c, "/matrix/1/5", [.float(0.5)], from: Self.client("127.0.0.3", port: 6001)).count == 1)
        #expect(Self.send(c, "/logout", [], from: viewer) == Self.role([.string("viewer"), .string("none")]))
        #expect(errorReason(c.handle(.message(OSCMessage("/matrix/1/5", [.float(0.5)])), from: viewer)) == "not permitted for role viewer")
        // Logged in again, then gone: the next session on that path is a viewer.
        _ = Self.send(c, "/login", [.string("4711")], from: viewer)
        c.depart(viewer)
        #expect(Self.send(c, "/role", [], from: viewer) == Self.role([.string("viewer"), .string("none")]))
        // A reload without the code logs its sessions out, and tells them.
        #expect(later.values.isEmpty)
        _ = Self.send(c, "/login", [.string("4711")], from: viewer)
        c.useAccess(try AccessRules.decode(Data(Self.file.replacingOccurrences(of: "4711", with: "0815").utf8),
                                           file: "access.json", outputs: 6))
        #expect(later.values == Self.role([.string("viewer"), .string("none")]).map { .message($0) })
        #expect(Self.send(c, "/role", [], from: viewer) == Self.role([.string("viewer"), .string("none")]))
    }

    @Test func aWrongCodeIsAnsweredLateAndFiveLockTheHostOut() async throws {
        let c = try Self.controller()
        let later = Collected<OSCPacket>()
        c.relay.send { packet, _ in later.append(packet) }
        let guesser = Self.client("127.0.0.3", port: 6000)
        let start = ContinuousClock.now
        for guess in 0..<5 { #expect(Self.send(c, "/login", [.string("000\(guess)")], from: guesser) == []) }
        #expect(later.values.isEmpty)
        // Generous deadlines: the refusals wait on a timer of the global
        // queue, late on a loaded machine (a run with every test at once and
        // both cores busy took more than 10 s).
        while later.values.count < 5 && ContinuousClock.now - start < .seconds(30) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(ContinuousClock.now - start >= Controller.wrongCodeDelay)
        #expect(later.values.flatMap(\.messages)
                == Array(repeating: OSCMessage("/error", [.string("/login"), .string("wrong code")]), count: 5))
        // Locked out: the right code too, from any port of that host.
        #expect(Self.send(c, "/login", [.string("4711")], from: Self.client("127.0.0.3", port: 6002)) == [])
        while later.values.count < 6 && ContinuousClock.now - start < .seconds(30) { try await Task.sleep(for: .milliseconds(20)) }
        let last = try #require(later.values.dropFirst(5).first?.messages.first, "the sixth refusal came")
        #expect(last.address == "/error" && "\(last.arguments)".contains("too many wrong codes from 127.0.0.3; try again in"))
        #expect(Self.send(c, "/role", [], from: Self.client("127.0.0.3", port: 6002))
                == Self.role([.string("viewer"), .string("none")]))
        // Another host may still log in.
        #expect(Self.send(c, "/login", [.string("4711")], from: Self.client("127.0.0.2")).first?.address == "/role")
    }

    @Test func aMalformedLoginIsRefusedAndChangesNothing() throws {
        let c = try Self.controller()
        let viewer = Self.client("127.0.0.3")
        for arguments: [OSCArgument] in [[], [.int32(4711)], [.string("4711"), .string("4711")]] {
            #expect(Self.send(c, "/login", arguments, from: viewer)
                    == [OSCMessage("/error", [.string("/login"), .string("expected s code")])], "\(arguments)")
        }
        #expect(Self.send(c, "/role", [], from: viewer) == Self.role([.string("viewer"), .string("none")]))
        // Not counted as wrong codes: the right one still logs in.
        #expect(Self.send(c, "/login", [.string("4711")], from: viewer).first?.address == "/role")
    }

    @Test func withoutAnAccessFileCodesAreNotInUseAndReadOnlyStaysReadOnly() {
        let c = makeController()
        #expect(errorReason(c.send("/login", .string("4711"))) == "codes are not in use (no --access file)")
        #expect(c.send("/role").flatMap(\.messages) == Self.role([.string("full"), .string("all")]))
        let reader = OSCPeer(address: SocketAddress.resolve(host: "127.0.0.1", port: 2)!, access: .readOnly)
        #expect(errorReason(c.handle(.message(OSCMessage("/matrix/1/1", [.float(0)])), from: reader)) == "read-only")
    }

    @Test func aMixSafeKeepsEveryCrosspointIntoItsOutputThroughRecallAndUndo() {
        let c = makeController(inputs: 4, outputs: 4)
        c.send("/preset/save", .string("show"))
        c.send("/matrix/*/3", .float(0.5))
        c.send("/matrix/*/4", .float(0.25))
        c.send("/safe/mix/3", .int32(1))
        #expect(c.send("/safe/mix/3") == [.message(OSCMessage("/safe/mix/3", [.int32(1)]))])
        c.send("/preset/recall", .string("show"), .float(0))
        let column = { (m: Int) in (1...4).map { c.scene.crosspoints[$0, m] } }
        #expect(column(3) == [0.5, 0.5, 0.5, 0.5])
        #expect(column(4) == [0, 0, 0, 1])
        c.send("/matrix/1/3", .float(0.75))
        c.send("/preset/undo") // (a lone 0 would be a button's release)
        #expect(column(3) == [0.75, 0.5, 0.5, 0.5])
        #expect(column(4) == [0.25, 0.25, 0.25, 0.25])
        // Stored in the state file.
        let state = c.snapshot()
        let read = try? RigState.decode(state.encoded(), file: "state.json")
        #expect(read?.safes[.mix] == [3])
    }

    @Test func aPatternNeverReachesTheMixSafes() {
        let c = makeController(inputs: 2, outputs: 2)
        c.send("/safe/*/*", .int32(1))
        #expect(c.snapshot().safes[.output] == [1, 2] && c.snapshot().safes[.mix].isEmpty)
        c.send("/safe/mix/*", .int32(1))
        #expect(c.snapshot().safes[.mix] == [1, 2])
        // A state file without mix safes reads in a build from before them.
        let plain = String(decoding: RigState(scene: Scene(inputs: 1, outputs: 1)).encoded(), as: UTF8.self)
        #expect(!plain.contains("mixes"))
    }

    @Test func oneHostsLoginsMakeRoomAmongThemselvesOnly() throws {
        let c = try Self.controller()
        let other = Self.client("127.0.0.3", port: 7000)
        _ = Self.send(c, "/login", [.string("4711")], from: other)
        for port in 0...Logins<OSCPeer>.perHost {
            _ = Self.send(c, "/login", [.string("4711")], from: Self.client("127.0.0.5", port: 8000 + port))
        }
        #expect(Self.send(c, "/role", [], from: other).first?.arguments.first == .string("drums"), "another host's login stays")
        #expect(Self.send(c, "/role", [], from: Self.client("127.0.0.5", port: 8000)).first?.arguments.first == .string("engineer"),
                "the host's least recently heard made room")
        #expect(Self.send(c, "/role", [], from: Self.client("127.0.0.5", port: 8001)).first?.arguments.first == .string("drums"))
    }

    @Test func aRefusedMessageThatMayBeALoginIsLoggedWithoutItsText() {
        #expect(Controller.mayBeLogin("/login") && Controller.mayBeLogin("/log*") && Controller.mayBeLogin("/{status,login}"))
        #expect(!Controller.mayBeLogin("/logout") && !Controller.mayBeLogin("/source/1/name"))
        #expect(Controller.withholdingText(OSCMessage("/log*", [.string("4711"), .int32(3)])) == "/log* ,si (text withheld) 3")
    }

    @Test func aReloadEndsTheSubscriptionsOfHostsItNoLongerLetsIn() throws {
        let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let hub = FeedbackHub(lease: .seconds(30), logger: quiet, send: { _, _ in })
        let c = try Self.controller(feedback: hub)
        _ = Self.send(c, "/subscribe", [], from: Self.client("127.0.0.3"))
        _ = Self.send(c, "/subscribe", [], from: Self.client("127.0.0.2"))
        c.waitForFullStates()
        #expect(hub.count == 2)
        let narrower = Self.file.replacingOccurrences(of: "127.0.0.0/8", with: "127.0.0.2/32")
            .replacingOccurrences(of: "127.0.0.3/32", with: "127.0.0.9/32")
        c.useAccess(try AccessRules.decode(Data(narrower.utf8), file: "access.json", outputs: 6))
        #expect(hub.count == 1, "127.0.0.3 is no longer let in")
    }
}
