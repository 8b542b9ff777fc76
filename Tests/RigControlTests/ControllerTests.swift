import Delivery
import Access
import Logging
import MixCore
import SceneModel
import Foundation
import OSC
import Presets
import RigControl
import Synchronization
import Testing

/// A controller over an offline mixer: no JACK, no sockets. Presets go to
/// a fresh temporary directory. Its later replies go to its `relay`.
func makeController(inputs: Int = 4, outputs: Int = 4, presets: URL? = nil, store: PresetStore? = nil, state: RigState? = nil,
                    feedback: FeedbackHub? = nil, meters: ((Mixer) -> MeterStream)? = nil,
                    listeners: (any ChangeListeners)? = nil, scheduler: BundleScheduler? = nil) -> Controller {
    let state = state ?? RigState(scene: Scene(inputs: inputs, outputs: outputs))
    let (inputs, outputs) = (state.scene.inputCount, state.scene.outputCount)
    let mixer = Mixer(scene: state.scene, panLaw: .balance, layout: OutputLayout(outputs: outputs))
    let directory = presets ?? FileManager.default.temporaryDirectory
        .appendingPathComponent("crosspoint-tests-\(UUID().uuidString)")
    let relay = ReplyRelay()
    let c = Controller(state: state, mixer: mixer, store: store ?? PresetStore(directory: directory),
                       smoothingSeconds: 0.02,
                       logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
                       subscriptions: Subscriptions(feedback: feedback, meters: meters?(mixer), listeners: listeners,
                                                    reply: relay.deliver),
                       scheduler: scheduler,
                       status: { _ in [.statusInputs: .int32(Int32(inputs))] })
    ReplyRelay.all.withLock { $0[ObjectIdentifier(c)] = relay }
    return c
}

/// Where a test controller's later replies go (`Subscriptions.reply`): a
/// test points it wherever it listens.
final class ReplyRelay: Sendable {
    static let all = Mutex<[ObjectIdentifier: ReplyRelay]>([:])
    private let target = Mutex<@Sendable (OSCPacket, OSCPeer) -> Void>({ _, _ in })

    func deliver(_ packet: OSCPacket, _ peer: OSCPeer) { target.withLock { $0 }(packet, peer) }

    /// Sends later replies to `body` from now on; returns where they went before.
    @discardableResult
    func send(to body: @escaping @Sendable (OSCPacket, OSCPeer) -> Void) -> @Sendable (OSCPacket, OSCPeer) -> Void {
        target.withLock { old in defer { old = body }; return old }
    }
}

let peer = OSCPeer(address: SocketAddress.resolve(host: "127.0.0.1", port: 1)!)

extension Controller {
    /// Where its later replies go (`makeController`).
    var relay: ReplyRelay { ReplyRelay.all.withLock { $0[ObjectIdentifier(self)] } ?? ReplyRelay() }

    /// Handles a message and returns its replies, with those that come once
    /// a preset write is done (`reply`): it waits for the write.
    @discardableResult
    func send(_ address: String, _ arguments: OSCArgument...) -> [OSCPacket] {
        let later = Collected<OSCPacket>()
        let kept = relay.send { packet, _ in later.append(packet) }
        defer { relay.send(to: kept) }
        let replies = handle(.message(OSCMessage(address, arguments)), from: peer)
        waitForPresetWrites()
        waitForFullStates()
        return replies + later.values
    }
}

/// Values gathered from any thread (replies sent later, through `Controller.reply`).
final class Collected<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])
    func append(_ value: Value) { storage.withLock { $0.append(value) } }
    var values: [Value] { storage.withLock { $0 } }
}

func errorReason(_ replies: [OSCPacket]) -> String? {
    guard case .message(let m)? = replies.first, m.address == "/error", m.arguments.count == 2,
          case .string(let reason) = m.arguments[1] else { return nil }
    return reason
}

@Suite struct ControllerTests {
    @Test func setsAndQueriesEveryKindOfParameter() {
        let c = makeController()
        c.send("/source/2/volume", .float(0.5))
        c.send("/source/3/db", .float(-6))
        c.send("/source/1/pan", .float(-0.25))
        c.send("/source/4/mute", .float(1))
        c.send("/source/4/name", .string("Vox"))
        c.send("/matrix/1/2", .float(2))
        c.send("/matrix/2/1/db", .int32(0))
        c.send("/output/3/volume", .float(0.25))
        c.send("/output/2/mute", .bool(true))
        c.send("/output/1/name", .string("Left wedge"))
        c.send("/master/db", .float(-10))
        c.send("/master/mute", .int32(1))
        #expect(c.scene.sources[1].volume == 0.5)
        #expect(abs(c.scene.sources[2].volume - 0.501187) < 1e-5)
        #expect(c.scene.sources[0].pan == -0.25)
        #expect(c.scene.sources[3].mute && c.scene.sources[3].name == "Vox")
        #expect(c.scene.crosspoints[1, 2] == 2 && c.scene.crosspoints[2, 1] == 1)
        #expect(c.scene.outputs[2].volume == 0.25 && c.scene.outputs[1].mute)
        #expect(c.scene.outputs[0].name == "Left wedge")
        #expect(abs(c.scene.master.volume - 0.316228) < 1e-5 && c.scene.master.mute)

        #expect(c.send("/source/2/volume") == [.message(OSCMessage("/source/2/volume", [.float(0.5)]))])
        #expect(c.send("/source/4/mute") == [.message(OSCMessage("/source/4/mute", [.int32(1)]))])
        #expect(c.send("/output/1/name") == [.message(OSCMessage("/output/1/name", [.string("Left wedge")]))])
        guard case .message(let db)? = c.send("/master/db").first, case .float(let value) = db.arguments[0] else {
            Issue.record("no reply"); return
        }
        #expect(abs(value - -10) < 1e-4)
        #expect(c.send("/matrix/1/2") == [.message(OSCMessage("/matrix/1/2", [.float(2)]))])
    }

    @Test func clampsFiniteValuesToTheirRange() {
        let c = makeController()
        c.send("/source/1/volume", .float(100))
        c.send("/source/2/pan", .float(-7))
        c.send("/matrix/1/1/db", .float(40))
        c.send("/output/1/db", .float(-500))
        #expect(c.scene.sources[0].volume == 4)
        #expect(c.scene.sources[1].pan == -1)
        #expect(abs(c.scene.crosspoints[1, 1] - 3.981) < 1e-3)
        #expect(c.scene.outputs[0].volume == 0)
    }

    @Test(arguments: [
        (OSCMessage("/nowhere", [.float(1)]), "unknown address"),
        (OSCMessage("/source/9/volume", [.float(1)]), "source 9 out of range (1-4)"),
        (OSCMessage("/matrix/1/5", [.float(1)]), "output 5 out of range (1-4)"),
        (OSCMessage("/source/0/mute", [.int32(1)]), "source 0 out of range (1-4)"),
        (OSCMessage("/source/1/volume", [.string("loud")]), "wrong argument type 's' at 1, expected a number"),
        (OSCMessage("/source/1/volume", [.float(1), .float(2), .float(3)]), "expected 1 or 2 arguments (value [fade seconds]), got 3"),
        (OSCMessage("/source/1/volume", [.float(.nan)]), "non-finite value at argument 1"),
        (OSCMessage("/source/1/volume", [.float(1), .double(.infinity)]), "non-finite value at argument 2"),
        (OSCMessage("/matrix/1/1", [.float(-.infinity)]), "non-finite value at argument 1"),
        (OSCMessage("/source/1/mute", [.string("on")]), "wrong argument type 's' at 1, expected a number"),
        (OSCMessage("/source/1/name", [.int32(3)]), "wrong argument type 'i', expected a string"),
        (OSCMessage("/matrix/map", [.int32(9)]), "argument 1 is 9.0, expected a whole number 0-4"),
        (OSCMessage("/matrix/map", [.float(1.5)]), "argument 1 is 1.5, expected a whole number 0-4"),
        (OSCMessage("/ping", [.int32(1), .int32(1)]), "expected [button], got 2 arguments"),
        (OSCMessage("//source", [.int32(1)]), "unknown address"),
        (OSCMessage("/source/1/invert", [.string("yes")]), "wrong argument type 's' at 1, expected a number"),
        (OSCMessage("/source/1/invert", [.int32(1), .int32(1)]), "expected 1 argument (on/off), got 2"),
        (OSCMessage("/source/5/invert", [.int32(1)]), "source 5 out of range (1-4)"),
        (OSCMessage("/output/1/delay", [.float(.nan)]), "non-finite value at argument 1"),
        (OSCMessage("/output/1/delay", [.string("far")]), "wrong argument type 's' at 1, expected a number"),
        (OSCMessage("/output/1/delay/db", [.float(1)]), "unknown address"),
        // Clear range texts (issue 32: "DCA 1 out of range (1-0)", "channel count 0.0").
        (OSCMessage("/source/1/dca/1", [.int32(1)]), "no DCAs on this rig"),
        (OSCMessage("/source/1/mutegroup/2", [.int32(1)]), "no mute groups on this rig"),
        (OSCMessage("/rig/inputs", [.int32(0)]), "channel count 0 out of range (1-512)"),
        (OSCMessage("/rig/outputs", [.double(1e30)]), "channel count 1e+30 out of range (1-512)"),
    ])
    func rejectsBadInputAndChangesNothing(message: OSCMessage, reason: String) {
        let c = makeController()
        let before = c.scene
        #expect(errorReason(c.handle(.message(message), from: peer)) == reason)
        #expect(c.scene == before)
        #expect(c.mixer.queuedChanges == 0)
        #expect(c.send("/ping") == [.message(OSCMessage("/pong"))])
    }

    /// A membership is 0 or 1: `/source/1/dca/1 2` was taken as 1 (issue 32).
    @Test func aMembershipTakesZeroOrOneOnly() {
        let c = makeController(state: RigState(scene: Scene(inputs: 4, outputs: 4, dcas: 2, muteGroups: 2)))
        let before = c.scene
        for bad: OSCArgument in [.int32(2), .float(0.5), .float(-1), .int32(3)] {
            #expect(errorReason(c.handle(.message(OSCMessage("/source/1/dca/1", [bad])), from: peer))?
                .hasPrefix("a membership is 0 or 1, not") == true, "\(bad)")
            #expect(errorReason(c.handle(.message(OSCMessage("/source/1/mutegroup/2", [bad])), from: peer)) != nil)
        }
        #expect(c.scene == before)
        #expect(c.send("/source/1/dca/1", .float(1)).isEmpty)
        #expect(c.send("/source/2/mutegroup/2", .bool(true)).isEmpty)
        #expect(c.scene.sources[0].dcas.contains(1) && c.scene.sources[1].muteGroups.contains(2))
        #expect(c.send("/source/1/dca/1", .int32(0)).isEmpty)
        #expect(!c.scene.sources[0].dcas.contains(1))
    }

    @Test func aWildcardThatFailsForOneTargetChangesNone() {
        let c = makeController()
        let before = c.scene
        // /source/1/* names volume, db, pan, mute, solo and name: a float is no name.
        #expect(errorReason(c.send("/source/1/*", .float(0.5))) == "/source/1/name: wrong argument type 'f', expected a string")
        #expect(c.scene == before)
    }

    @Test func wildcardsReachEveryMatch() {
        let c = makeController()
        c.send("/source/*/mute", .int32(1))
        #expect(c.scene.sources.allSatisfy { $0.mute })
        c.send("/matrix/[1-3]/1", .float(0.5))
        #expect((1...3).allSatisfy { c.scene.crosspoints[$0, 1] == 0.5 } && c.scene.crosspoints[4, 1] == 0)
        c.send("/source/{1,3}/pan", .float(-1))
        #expect(c.scene.sources.map(\.pan) == [-1, 0, -1, 0])
        c.send("/s?urce/[!1]/solo", .bool(true))
        #expect(c.scene.sources.map(\.solo) == [false, true, true, true])
        // A wildcard query's replies come packed in one bundle.
        guard case .bundle(let bundle)? = c.send("/source/*/pan").first else { Issue.record("no bundle"); return }
        let replies = bundle.messages
        #expect(replies.map(\.address) == (1...4).map { "/source/\($0)/pan" })
    }

    @Test func soloSilencesEveryOtherSource() {
        let c = makeController()
        let p = c.mixer.parameters
        c.send("/source/2/solo", .int32(1))
        c.mixer.drainQueue()
        let gates = (1...4).map { c.mixer.offlineKernel.pointee.ramp(p.sourceSolo($0)).targetValue }
        #expect(gates == [0, 1, 0, 0])
        c.send("/source/2/solo", .int32(0))
        c.mixer.drainQueue()
        #expect((1...4).allSatisfy { c.mixer.offlineKernel.pointee.ramp(p.sourceSolo($0)).targetValue == 1 })
    }

    @Test func channelMapRoutesEachOutputFromOneInput() {
        let c = makeController()
        c.send("/matrix/map", .int32(0), .int32(0), .int32(1), .int32(2))
        #expect(c.channelMap() == [0, 0, 1, 2])
        #expect((1...4).allSatisfy { c.scene.crosspoints[$0, 1] == 0 && c.scene.crosspoints[$0, 2] == 0 })
        #expect(c.scene.crosspoints[1, 3] == 1 && c.scene.crosspoints[3, 3] == 0)
        #expect(c.send("/matrix/map") == [.message(OSCMessage("/matrix/map", [0, 0, 1, 2].map { .int32($0) }))])
        c.send("/matrix/clear")
        #expect(c.scene.crosspoints.gains.allSatisfy { $0 == 0 })
    }

    @Test func aClearButtonReleaseDoesNothing() {
        let c = makeController()
        c.send("/matrix/clear", .float(0))
        #expect(c.scene.crosspoints[1, 1] == 1)
        c.send("/matrix/clear", .float(1))
        #expect(c.scene.crosspoints[1, 1] == 0)
    }

    @Test func aBundleIsOneBatch() {
        let c = makeController()
        let replies = c.handle(.bundle([OSCMessage("/matrix/1/1", [.float(0)]), OSCMessage("/matrix/2/2", [.float(0)]),
                                        OSCMessage("/matrix/3/3")]), from: peer)
        #expect(replies == [.message(OSCMessage("/matrix/3/3", [.float(1)]))])
        #expect(c.mixer.queuedChanges == 2)
    }

    @Test func fadeArgumentSetsTheRampTime() {
        let c = makeController()
        c.mixer.setSampleRate(48_000)
        c.send("/source/1/volume", .float(0), .float(2.5))
        c.mixer.drainQueue()
        #expect(c.mixer.offlineKernel.pointee.ramp(c.mixer.parameters.sourceVolume(1)).remaining == 120_000)
    }

    @Test func statusAndPing() {
        let c = makeController()
        #expect(c.send("/status") == [.bundle([OSCMessage("/status/inputs", [.int32(4)]),
                                                OSCMessage("/status/late_bundles", [.int32(0)]),
                                                OSCMessage("/status/access", [.string("full")])])])
        // A read-only session is told so.
        let reader = OSCPeer(address: SocketAddress.resolve(host: "127.0.0.1", port: 2)!, access: .readOnly)
        let replies = c.handle(.message(OSCMessage("/status")), from: reader).flatMap(\.messages)
        #expect(replies.last == OSCMessage("/status/access", [.string("read-only")]))
        #expect(c.send("/ping") == [.message(OSCMessage("/pong"))])
    }
}

@Suite struct AddressPatternTests {
    @Test(arguments: [
        ("*", "volume", true), ("vol*", "volume", true), ("*e", "volume", true), ("*x*", "volume", false),
        ("?", "1", true), ("?", "12", false), ("[1-4]", "3", true), ("[1-4]", "5", false),
        ("[!1-4]", "5", true), ("[!1-4]", "2", false), ("{1,3}", "3", true), ("{1,3}", "2", false),
        ("{vol,d}*", "db", true), ("1[0-2]", "11", true), ("[1-", "1", false), ("{1,2", "1", false),
        ("", "", true), ("*", "", true),
    ])
    func matches(pattern: String, name: String, expected: Bool) {
        #expect(OSCAddressPattern.matches(pattern, name) == expected)
    }
}

@Suite struct HardeningTests {
    @Test func nestedAlternativesCannotStallThePatternMatcher() {
        let pattern = String(repeating: "{,}", count: 40) + "x"
        let clock = ContinuousClock()
        let elapsed = clock.measure { #expect(!OSCAddressPattern.matches(pattern, String(repeating: "y", count: 30))) }
        #expect(elapsed < .milliseconds(200), "took \(elapsed)")
        #expect(OSCAddressPattern.matches(String(repeating: "{,}", count: 40) + "*", "anything"))
    }

    @Test func aWildcardQueryNeverClearsTheMatrix() {
        let c = makeController()
        _ = c.send("/matrix/*")
        _ = c.send("/*/*")
        _ = c.send("/matrix/*", .int32(1))
        #expect(c.scene.crosspoints[1, 1] == 1)
    }

    @Test func readOnlyWinsOverAllowed() throws {
        let policy = AccessPolicy(readOnly: [try #require(AccessPolicy.Network("192.168.1.50"))])
        #expect(policy.access(forHost: "192.168.1.50") == .readOnly)
        #expect(policy.access(forHost: "192.168.1.51") == .full)
        #expect(policy.access(forHost: "8.8.8.8") == .denied)
        #expect(policy.access(forHost: "::ffff:192.168.1.50") == .readOnly)
    }

    @Test func notesThatCouldNotBeReadBackAreRefused() {
        let c = makeController()
        #expect(errorReason(c.send("/preset/save", .string("p"), .string(String(repeating: "n", count: 5000)))) == "notes longer than 4096 characters")
        #expect(errorReason(c.send("/source/1/name", .string(String(repeating: "e\u{301}", count: 20) + String(repeating: "\u{301}", count: 300)))) != nil)
    }

    /// Packets from many threads at once (UDP, TCP connections, WebSocket
    /// clients, the scheduler): the controller takes them one at a time, and
    /// a reader on another thread never sees half a bundle.
    @Test func packetsFromManyThreadsAreHandledOneAtATime() async {
        let c = makeController()
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<4 {
                group.addTask {
                    for step in 0..<200 {
                        let value = Float(sender * 1000 + step) / 4000
                        _ = c.handle(.bundle([OSCMessage("/matrix/1/1", [.float(value)]),
                                              OSCMessage("/matrix/2/2", [.float(value)])]), from: peer)
                        c.releaseDueBundles()
                    }
                }
            }
            group.addTask {
                for _ in 0..<2000 {
                    let scene = c.snapshot().scene
                    #expect(scene.crosspoints[1, 1] == scene.crosspoints[2, 2], "half a bundle seen")
                }
            }
        }
        #expect(c.mixer.queuedChanges == 4 * 200 * 2)
    }
}

@Suite struct FaderAddressTests {
    @Test func faderPositionsFollowTheConsoleLaw() throws {
        let c = makeController()
        c.send("/source/1/fader", .float(0.5))   // −10 dB
        c.send("/output/2/fader", .float(1))     // +10 dB
        c.send("/master/fader", .float(0))       // off
        c.send("/matrix/1/2/fader", .float(0.75)) // 0 dB
        #expect(abs(c.scene.sources[0].volume - 0.316_227_8) < 1e-6)
        #expect(abs(c.scene.outputs[1].volume - 3.162_277_7) < 1e-5)
        #expect(c.scene.master.volume == 0)
        #expect(c.scene.crosspoints[1, 2] == 1)
        c.send("/source/2/fader", .float(7)) // clamped to 1
        #expect(abs(c.scene.sources[1].volume - 3.162_277_7) < 1e-5)
        guard case .message(let reply)? = c.send("/source/1/fader").first, case .float(let position) = reply.arguments[0] else {
            Issue.record("no reply"); return
        }
        #expect(abs(position - 0.5) < 1e-5)
        c.send("/source/3/volume", .float(4))
        #expect(c.send("/source/3/fader") == [.message(OSCMessage("/source/3/fader", [.float(1)]))], "above +10 dB reads 1")
    }
}

@Suite struct LongTextTests {
    /// A 60 KB address is answered with its first 256 characters and its
    /// length, not echoed whole.
    @Test func aHugeAddressGetsAShortError() throws {
        let c = makeController()
        let address = "/" + String(repeating: "a", count: 60_000)
        guard case .message(let reply)? = c.send(address, .float(1)).first, case .string(let echoed) = reply.arguments[0] else {
            Issue.record("no /error")
            return
        }
        #expect(reply.address == "/error")
        #expect(echoed.count < 300 && echoed.hasSuffix("(60001 characters)"), "\(echoed.prefix(80))")
        #expect(OSCMessage(address, [.string(String(repeating: "b", count: 5000))]).description.count < 600)
    }
}
