import Delivery
import Access
import Foundation
import Logging
import MixCore
import SceneModel
import OSC
import Presets
@testable import RigControl
import Synchronization
import Testing

/// Log lines, kept: what `MeterStream` says about a subscription's rate.
private struct KeptLog: LogHandler {
    let lines: Collected<String>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) { lines.append(event.message.description) }
}

/// A controller with feedback and meters, as `serve` has them (nothing is sent).
private func surfaceController(presets: URL? = nil) -> (Controller, FeedbackHub, MeterStream, Collected<String>) {
    let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    let hub = FeedbackHub(lease: .seconds(30), logger: quiet, send: { _, _ in })
    let lines = Collected<String>()
    let made = Mutex<MeterStream?>(nil)
    let c = makeController(presets: presets, feedback: hub, meters: { mixer in
        let meters = MeterStream(mixer: mixer, lease: .seconds(30),
                                 logger: Logger(label: "meters", factory: { _ in KeptLog(lines: lines) }), send: { _, _ in })
        made.withLock { $0 = meters }
        return meters
    })
    return (c, hub, made.withLock { $0 }!, lines)
}

private func from(port: Int, access: AccessPolicy.Access = .full) -> OSCPeer {
    OSCPeer(address: SocketAddress.resolve(host: "127.0.0.1", port: port)!, access: access)
}

extension Controller {
    @discardableResult
    fileprivate func send(_ address: String, _ arguments: [OSCArgument], from sender: OSCPeer) -> [OSCPacket] {
        defer { waitForFullStates() }
        return handle(.message(OSCMessage(address, arguments)), from: sender)
    }
}

private func addresses(_ packets: [OSCPacket]) -> [String] {
    packets.flatMap { packet -> [String] in
        switch packet {
        case .message(let m): [m.address]
        case .bundle(let b): b.messages.map(\.address)
        }
    }
}

/// Where feedback would go now: each subscriber's destination port.
private func feedbackPorts(_ hub: FeedbackHub) -> Set<Int> {
    Set(hub.due(at: .now + .seconds(1)).map(\.0.port))
}

/// The rig that a recall then moved: source 1 at 0.25 live, "flat" at unity.
private func recalled() -> Controller {
    let c = makeController()
    c.send("/preset/save", .string("flat"))
    c.send("/source/1/volume", .float(0.25))
    c.send("/preset/recall", .string("flat"), .float(0))
    return c
}

/// Every action address takes one trailing button value (Controller+Buttons.swift).
@Suite struct ButtonTests {
    static let press: [OSCArgument] = [.float(1)]
    static let release: [OSCArgument] = [.float(0)]

    @Test(arguments: [
        [OSCArgument.float(1)], [.float(0.5)], [.float(-1)], [.int32(1)], [.int32(127)], [.double(1)], [.int64(1)],
        [.bool(true)],
    ])
    func aPressActsAsTheAddressAlone(press: [OSCArgument]) {
        let c = makeController()
        #expect(c.send("/ping", press, from: peer) == [.message(OSCMessage("/pong"))])
        #expect(addresses(c.send("/status", press, from: peer)) == ["/status/inputs", "/status/late_bundles", "/status/access"])
        #expect(addresses(c.send("/preset/list", press, from: peer)) == ["/preset/list"])
        #expect(c.send("/preset/current", press, from: peer) == [.message(OSCMessage("/preset/current", [.string(""), .int32(0)]))])
        #expect(c.send("/matrix/clear", press, from: peer) == [])
        #expect(c.scene.crosspoints.gains.allSatisfy { $0 == 0 })
    }

    @Test(arguments: [[OSCArgument.float(0)], [.float(-0.0)], [.int32(0)], [.double(0)], [.int64(0)], [.bool(false)]])
    func aReleaseDoesNothingAndAnswersNothing(release: [OSCArgument]) {
        let (c, hub, meters, _) = surfaceController()
        let before = c.snapshot()
        for address in ["/ping", "/status", "/preset/list", "/preset/current", "/matrix/clear", "/preset/undo",
                        "/preset/recall/nothing", "/subscribe", "/unsubscribe", "/meters/subscribe", "/meters/unsubscribe"] {
            #expect(c.send(address, release, from: peer) == [], "\(address)")
        }
        #expect(c.snapshot() == before)
        #expect(c.mixer.queuedChanges == 0)
        #expect(hub.count == 0 && meters.count == 0)
    }

    static let badButtons: [(String, [OSCArgument], String)] = [
        ("/ping", [OSCArgument.string("x")], "wrong argument type 's' at 1, expected a button value (i, f or T/F)"),
        ("/ping", [.float(1), .float(1)], "expected [button], got 2 arguments"),
        ("/status", [.float(.nan)], "non-finite value at argument 1"),
        ("/matrix/clear", [.int32(1), .int32(0)], "expected [button], got 2 arguments"),
        ("/preset/list", [.blob([1])], "wrong argument type 'b' at 1, expected a button value (i, f or T/F)"),
        ("/preset/undo", [.float(1), .float(1), .float(1)], "expected [fade] [button], got 3 arguments"),
        ("/preset/undo", [.float(1), .string("x")], "wrong argument type 's' at 2, expected a button value (i, f or T/F)"),
        ("/preset/undo", [.float(.nan)], "non-finite value at argument 1"),
        ("/subscribe", [.int32(9000), .int32(1), .int32(1)], "expected [port] [button], got 3 arguments"),
        ("/subscribe", [.float(9000.5)], "expected [port]: a whole number 1024-65535"),
        ("/subscribe", [.int32(70000)], "expected [port]: a whole number 1024-65535"),
        ("/subscribe", [.int32(80), .int32(1)], "expected [port]: a whole number 1024-65535"),
        ("/meters/subscribe", [.float(30), .float(1), .float(1)], "expected [rate] [button], got 3 arguments"),
        ("/meters/subscribe", [.float(.infinity)], "non-finite value at argument 1"),
        ("/preset/recall/flat", [.float(1), .float(2)], "expected [button], got 2 arguments"),
    ]

    @Test(arguments: badButtons)
    func aBadButtonIsAnErrorAndChangesNothing(address: String, arguments: [OSCArgument], reason: String) {
        let (c, hub, meters, _) = surfaceController()
        c.send("/preset/save", .string("flat"))
        let before = c.snapshot()
        #expect(errorReason(c.send(address, arguments, from: peer)) == reason)
        #expect(c.snapshot() == before)
        #expect(c.mixer.queuedChanges == 0)
        #expect(hub.count == 0 && meters.count == 0)
    }

    @Test func undoPressedAndReleasedUndoesOnce() {
        let c = recalled()
        #expect(c.scene.sources[0].volume == 1)
        #expect(addresses(c.send("/preset/undo", Self.press, from: peer)) == ["/preset/undone"])
        #expect(c.scene.sources[0].volume == 0.25)
        #expect(c.send("/preset/undo", Self.release, from: peer) == [], "the release does not go forward again")
        #expect(c.scene.sources[0].volume == 0.25)
        // The next press goes forward, as a second undo always has.
        c.send("/preset/undo", Self.press, from: peer)
        #expect(c.scene.sources[0].volume == 1)
        // With nothing to undo, a release is still nothing; a press says so.
        let fresh = makeController()
        #expect(fresh.send("/preset/undo", Self.release, from: peer) == [])
        #expect(errorReason(fresh.send("/preset/undo", Self.press, from: peer)) == "nothing to undo")
    }

    /// The remaining time of source 1's volume ramp after an undo, at 48 kHz.
    private func undoRamp(_ arguments: [OSCArgument]) -> Int {
        let c = recalled()
        c.mixer.drainQueue()
        c.mixer.setSampleRate(48_000)
        _ = c.send("/preset/undo", arguments, from: peer)
        c.mixer.drainQueue()
        return c.mixer.offlineKernel.pointee.ramp(c.mixer.parameters.sourceVolume(1)).remaining
    }

    @Test func undoReadsALoneNonZeroNumberAsItsFade() {
        #expect(undoRamp([]) == 960, "no argument: the smoothing time (20 ms)")
        #expect(undoRamp([.float(2.5)]) == 120_000, "a fade, as documented")
        #expect(undoRamp([.float(1)]) == 48_000, "a TouchOSC button: its 1.0 is a 1 s fade")
        #expect(undoRamp([.bool(true)]) == 960, "T is only a press")
        #expect(undoRamp([.float(2.5), .float(1)]) == 120_000, "a fade, then a button")
        #expect(undoRamp([.float(0), .int32(1)]) == 0 && recalledAfter([.float(0), .int32(1)]) == 0.25, "at once, pressed")
        #expect(undoRamp([.float(2.5), .float(0)]) == 0 && recalledAfter([.float(2.5), .float(0)]) == 1, "released: nothing")
    }

    private func recalledAfter(_ arguments: [OSCArgument]) -> Float {
        let c = recalled()
        _ = c.send("/preset/undo", arguments, from: peer)
        return c.scene.sources[0].volume
    }

    @Test func aPresetOnAButtonRecallsWithTheFilesFadeAndEveryPart() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("xp-\(UUID().uuidString)")
        var scene = Scene(inputs: 4, outputs: 4)
        scene.sources[0].volume = 0.5
        scene.crosspoints[1, 2] = 1
        scene.outputs[0].mute = true
        scene.master.volume = 2
        try PresetStore(directory: directory).save(Preset(name: "verse 1", fade: 3, scene: scene))
        let c = makeController(presets: directory)
        c.send("/safe/source/1", .int32(1))
        #expect(c.send("/preset/recall/verse 1", Self.release, from: peer) == [])
        #expect(c.scene == Scene(inputs: 4, outputs: 4), "a release recalls nothing")
        let replies = c.send("/preset/recall/verse 1", Self.press, from: peer)
        #expect(replies == [.message(OSCMessage("/preset/recalled", [.string("verse 1"), .float(3)]))])
        #expect(c.scene.crosspoints[1, 2] == 1 && c.scene.outputs[0].mute && c.scene.master.volume == 2)
        #expect(c.scene.sources[0].volume == 1, "safes hold, as for /preset/recall")
        #expect(c.send("/preset/current") == [.message(OSCMessage("/preset/current", [.string("verse 1"), .int32(0)]))])
        // No argument recalls too; and undo goes back.
        c.send("/preset/undo", .bool(true))
        #expect(c.scene.master.volume == 1)
        #expect(c.send("/preset/recall/verse 1", [], from: peer).count == 1)
        #expect(c.scene.master.volume == 2)
    }

    @Test(arguments: ["nope", ".hidden", "semi;colon", "*", String(repeating: "x", count: 65)])
    func aPresetOnAButtonIsRefusedAsRecallWouldRefuseIt(name: String) {
        let c = makeController()
        let before = c.snapshot()
        let byArgument = errorReason(c.send("/preset/recall", .string(name)))
        #expect(byArgument != nil)
        let replies = c.send("/preset/recall/\(name)", Self.press, from: peer)
        guard case .message(let error)? = replies.first else { Issue.record("no reply"); return }
        #expect(error.arguments == [.string("/preset/recall/\(name)"), .string(byArgument ?? "")])
        #expect(c.send("/preset/recall/\(name)", Self.release, from: peer) == [])
        #expect(c.snapshot() == before)
    }

    @Test func aSubscribeButtonSubscribesWhereItSendsFromAndAPortStillNamesAPort() {
        let (c, hub, _, _) = surfaceController()
        let tablet = from(port: 9100)
        #expect(c.send("/subscribe", Self.release, from: tablet) == [])
        #expect(hub.count == 0)
        #expect(c.send("/subscribe", Self.press, from: tablet) == [])
        #expect(feedbackPorts(hub) == [9100], "a button value is not a port")
        #expect(c.send("/subscribe", Self.release, from: tablet) == [])
        #expect(hub.count == 1)
        #expect(c.send("/unsubscribe", Self.release, from: tablet) == [])
        #expect(hub.count == 1, "an unsubscribe button's release keeps the subscription")
        c.send("/unsubscribe", Self.press, from: tablet)
        #expect(hub.count == 0)

        // Below 1024 a button value, in any type; 1024 and up a port, in any type.
        for value in [OSCArgument.int32(1), .int32(1023), .float(1000), .bool(true)] {
            let (c, hub, _, _) = surfaceController()
            c.send("/subscribe", [value], from: tablet)
            #expect(feedbackPorts(hub) == [9100], "\(value)")
        }
        for (value, port) in [(OSCArgument.int32(1024), 1024), (.int32(9000), 9000), (.float(9000), 9000),
                              (.double(65535), 65535)] {
            let (c, hub, _, _) = surfaceController()
            c.send("/subscribe", [value], from: tablet)
            #expect(feedbackPorts(hub) == [port], "\(value)")
            c.send("/unsubscribe", [value], from: tablet)
            #expect(hub.count == 0, "\(value)")
        }
        // A port, then a button (TouchOSC's constant arguments come first).
        let (other, otherHub, _, _) = surfaceController()
        #expect(other.send("/subscribe", [.int32(9000), .float(0)], from: tablet) == [])
        #expect(otherHub.count == 0)
        other.send("/subscribe", [.int32(9000), .float(1)], from: tablet)
        #expect(feedbackPorts(otherHub) == [9000])
    }

    @Test func aMeterButtonSubscribesAtTheDefaultRateAndARateAboveOneIsARate() {
        let (c, _, meters, log) = surfaceController()
        #expect(c.send("/meters/subscribe", Self.release, from: from(port: 9101)) == [])
        #expect(meters.count == 0)
        c.send("/meters/subscribe", Self.press, from: from(port: 9101))
        c.send("/meters/subscribe", [.int32(1)], from: from(port: 9102))
        c.send("/meters/subscribe", [.bool(true)], from: from(port: 9103))
        c.send("/meters/subscribe", [.float(30)], from: from(port: 9104))
        c.send("/meters/subscribe", [.float(1.5)], from: from(port: 9105))
        c.send("/meters/subscribe", [.int32(100)], from: from(port: 9106))
        c.send("/meters/subscribe", [.float(30), .float(1)], from: from(port: 9107))
        #expect(c.send("/meters/subscribe", [.float(30), .float(0)], from: from(port: 9108)) == [])
        c.send("/meters/subscribe", [], from: from(port: 9109))
        #expect(meters.count == 8)
        #expect(log.values == [
            "127.0.0.1:9101 subscribed to meters at 20.0 Hz", "127.0.0.1:9102 subscribed to meters at 20.0 Hz",
            "127.0.0.1:9103 subscribed to meters at 20.0 Hz", "127.0.0.1:9104 subscribed to meters at 30.0 Hz",
            "127.0.0.1:9105 subscribed to meters at 1.5 Hz", "127.0.0.1:9106 subscribed to meters at 60.0 Hz",
            "127.0.0.1:9107 subscribed to meters at 30.0 Hz", "127.0.0.1:9109 subscribed to meters at 20.0 Hz",
        ])
        #expect(c.send("/meters/unsubscribe", Self.release, from: from(port: 9101)) == [])
        #expect(meters.count == 8)
        c.send("/meters/unsubscribe", Self.press, from: from(port: 9101))
        #expect(meters.count == 7)
    }

    @Test func meterRateSetsTheSendersRateAndRefusesOneOutOfRange() {
        let (c, _, meters, log) = surfaceController()
        #expect(c.send("/meters/rate", [.float(5)], from: from(port: 9101)) == [])
        #expect(c.send("/meters/rate", [.int32(1)], from: from(port: 9102)) == [])
        #expect(c.send("/meters/rate", [.double(60)], from: from(port: 9103)) == [])
        #expect(log.values == ["127.0.0.1:9101 subscribed to meters at 5.0 Hz", "127.0.0.1:9102 subscribed to meters at 1.0 Hz",
                               "127.0.0.1:9103 subscribed to meters at 60.0 Hz"])
        // Already subscribed: the rate changes, the subscription stays one.
        #expect(c.send("/meters/rate", [.float(10)], from: from(port: 9101)) == [])
        #expect(meters.count == 3)
        for (arguments, reason) in [
            ([OSCArgument.float(0.5)], "rate 0.5 out of range (1-60)"), ([.float(0)], "rate 0.0 out of range (1-60)"),
            ([.float(61)], "rate 61.0 out of range (1-60)"), ([.float(.nan)], "non-finite value at argument 1"),
            ([.string("fast")], "wrong argument type 's' at 1, expected a number"),
            ([], "expected 1 argument (rate per second), got 0"), ([.float(5), .float(1)], "expected 1 argument (rate per second), got 2"),
        ] {
            #expect(errorReason(c.send("/meters/rate", arguments, from: from(port: 9200))) == reason, "\(arguments)")
        }
        #expect(meters.count == 3)
    }

    @Test func aReadOnlyTabletsReleaseIsNothingAndItsPressIsRefusedAsBefore() {
        let (c, hub, _, _) = surfaceController()
        c.send("/preset/save", .string("flat"))
        let reader = from(port: 9300, access: .readOnly)
        #expect(c.send("/preset/undo", Self.release, from: reader) == [])
        #expect(c.send("/matrix/clear", Self.release, from: reader) == [])
        #expect(c.send("/preset/recall/flat", Self.release, from: reader) == [])
        #expect(errorReason(c.send("/preset/undo", Self.press, from: reader)) == "read-only")
        #expect(errorReason(c.send("/matrix/clear", Self.press, from: reader)) == "read-only")
        #expect(errorReason(c.send("/preset/recall/flat", Self.press, from: reader)) == "read-only")
        #expect(c.send("/ping", Self.press, from: reader) == [.message(OSCMessage("/pong"))])
        c.send("/subscribe", Self.press, from: reader)
        c.send("/meters/rate", [.float(5)], from: reader)
        #expect(hub.count == 1)
        #expect(c.scene.crosspoints[1, 1] == 1)
    }

    @Test func buttonsInABundleActInOrder() {
        let c = recalled()
        let replies = c.handle(.bundle([OSCMessage("/preset/undo", Self.press), OSCMessage("/preset/undo", Self.release),
                                        OSCMessage("/ping", Self.release), OSCMessage("/ping", Self.press)]), from: peer)
        #expect(addresses(replies) == ["/preset/undone", "/pong"])
        #expect(c.scene.sources[0].volume == 0.25)
    }
}
