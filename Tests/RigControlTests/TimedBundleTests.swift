import Delivery
import Foundation
import MixCore
import OSC
import RigControl
import Synchronization
import Testing

/// A clock with no audio running (JACK away): no cue times, no periods.
struct StoppedClock: AudioClock {
    func cueTime(atUnixTime time: Double) -> UInt64? { nil }
    func lastProcessedCueTime() -> UInt64? { nil }
}

/// Bundles for later: the audio changes are staged on arrival, the scene
/// changes at the bundle's time, and a bundle whose meaning changed while it
/// waited is corrected.
@Suite struct TimedBundleTests {
    final class Outbox: Sendable {
        let packets = Mutex<[OSCPacket]>([])
        var isEmpty: Bool { packets.withLock { $0.isEmpty } }
    }

    func timedController() -> (Controller, BundleScheduler, Outbox) {
        let scheduler = BundleScheduler(clock: StoppedClock())
        let c = makeController(scheduler: scheduler)
        let sent = Outbox()
        c.relay.send { packet, _ in sent.packets.withLock { $0.append(packet) } }
        return (c, scheduler, sent)
    }

    func sendBundle(_ c: Controller, secondsAhead: Double, _ messages: [OSCMessage]) -> [OSCPacket] {
        c.handle(.bundle(messages, at: OSCTimeTag(unixTime: Date().timeIntervalSince1970 + secondsAhead)), from: peer)
    }

    @Test func aBundleForLaterStagesItsChangesAndLeavesTheSceneAlone() {
        let (c, scheduler, _) = timedController()
        let before = c.scene
        let replies = sendBundle(c, secondsAhead: 5, [OSCMessage("/matrix/1/1", [.float(0)]),
                                                     OSCMessage("/source/2/solo", [.int32(1)]),
                                                     OSCMessage("/preset/save", [.string("later")])])
        #expect(replies.isEmpty)
        #expect(c.scene == before, "the scene changes at the bundle's time")
        #expect(scheduler.waiting == 1)
        #expect(c.mixer.timedBatches.waiting == 1, "its changes are staged with the mixer")
        // One crosspoint, one solo-gate change for each of the three other sources.
        #expect(c.mixer.queuedChanges == 1 + 3)
        #expect(c.send("/preset/list") == [.message(OSCMessage("/preset/list", []))], "nothing saved yet")
    }

    @Test func aBundleThatMeansTheSameAtItsTimeNeedsNoCorrection() {
        let c = makeController()
        let p = c.mixer.parameters
        let staged = [Change(ramp: Int32(p.crosspoint(1, 1)), position: 0, value: 0, seconds: 0.02)]
        c.handleScheduled([OSCMessage("/matrix/1/1", [.float(0)])], from: peer, staged: staged) { _, _ in }
        #expect(c.scene.crosspoints[1, 1] == 0)
        #expect(c.mixer.queuedChanges == 0, "the audio thread had it already")
    }

    @Test func aSoloThatChangedMeaningWhileWaitingIsCorrected() {
        let c = makeController()
        let p = c.mixer.parameters
        // Staged when no other solo was on: sources 1, 3 and 4 silenced.
        let staged = [1, 3, 4].map { Change(ramp: Int32(p.sourceSolo($0)), position: 0, value: 0, seconds: 0.02) }
        // Meanwhile source 3 was soloed: at the bundle's time 2 and 3 are both heard.
        c.send("/source/3/solo", .int32(1))
        c.mixer.drainQueue()
        c.handleScheduled([OSCMessage("/source/2/solo", [.int32(1)])], from: peer, staged: staged) { _, _ in }
        c.mixer.drainQueue()
        let gates = (1...4).map { c.mixer.offlineKernel.pointee.ramp(p.sourceSolo($0)).targetValue }
        #expect(gates == [0, 1, 1, 0], "source 3 was put back: \(gates)")
    }

    /// A message that arrives after a bundle's time acts on the scene the
    /// bundle left (as the audio does), even before the scheduler's thread
    /// has got round to it: else setting the value the stale scene already
    /// holds would change nothing, and the audio would keep the bundle's.
    @Test func aMessageAfterABundlesTimeFollowsTheBundle() async throws {
        let (c, scheduler, _) = timedController()
        _ = sendBundle(c, secondsAhead: 0.05, [OSCMessage("/matrix/1/1", [.float(0.5)])])
        try await Task.sleep(for: .milliseconds(80))
        #expect(scheduler.waiting == 1, "no scheduler thread runs in this test")
        c.send("/matrix/1/1", .float(1))
        #expect(scheduler.waiting == 0)
        #expect(c.scene.crosspoints[1, 1] == 1)
        c.mixer.service() // detached: applies the bundle's batch, its time having passed
        c.mixer.drainQueue()
        #expect(c.mixer.offlineKernel.pointee.ramp(c.mixer.parameters.crosspoint(1, 1)).targetValue == 1)
    }

    @Test func aLateBundleAppliesAtOnceAndSaysSo() throws {
        let (c, scheduler, _) = timedController()
        let replies = sendBundle(c, secondsAhead: -2, [OSCMessage("/matrix/1/1", [.float(0)]), OSCMessage("/ping")])
        #expect(replies.count == 2)
        guard case .message(let late)? = replies.first, late.address == "/late",
              case .string("/matrix/1/1")? = late.arguments.first,
              case .float(let seconds)? = late.arguments.last else {
            Issue.record("no /late first: \(replies)")
            return
        }
        #expect(seconds > 1.9 && seconds < 3)
        #expect(replies.last == .message(OSCMessage("/pong")))
        #expect(c.scene.crosspoints[1, 1] == 0)
        #expect(c.lateBundleCount == 1 && scheduler.waiting == 0)
    }

    @Test func aBundleTooFarAheadIsRefusedWhole() {
        let (c, scheduler, _) = timedController()
        let replies = sendBundle(c, secondsAhead: 7200, [OSCMessage("/matrix/1/1", [.float(0)]),
                                                         OSCMessage("/matrix/2/2", [.float(0)])])
        #expect(errorReason(replies) == "time tag more than an hour ahead")
        #expect(replies.count == 1)
        #expect(c.scene.crosspoints[1, 1] == 1 && c.scene.crosspoints[2, 2] == 1)
        #expect(scheduler.waiting == 0 && c.mixer.queuedChanges == 0)
    }

    @Test func aBundleTooLargeToWaitIsRefused() {
        let (c, scheduler, sent) = timedController()
        // A wildcard that would stage every crosspoint of a 4x4 rig is small;
        // messages past the per-client byte limit are not.
        let big = String(repeating: "x", count: 60_000)
        let messages = Array(repeating: OSCMessage("/source/1/name", [.string(big)]), count: 300)
        let replies = sendBundle(c, secondsAhead: 60, messages)
        #expect(errorReason(replies)?.contains("MiB") == true, "\(replies.first.map { "\($0)" } ?? "no reply")")
        #expect(replies.count == 1, "one /error for the bundle")
        #expect(scheduler.waiting == 0 && scheduler.waitingBytes == 0)
        #expect(sent.isEmpty)
        #expect(c.send("/ping") == [.message(OSCMessage("/pong"))])
    }

    /// Quotas per sender and per host, and places kept for full access
    /// (issue 32: 10,100 `/ping` bundles an hour ahead from one viewer took
    /// every place, and the engineer's cue was refused).
    @Test func oneClientCannotFillTheQueueForEveryone() {
        let (c, scheduler, _) = timedController()
        let due = OSCTimeTag(unixTime: Date().timeIntervalSince1970 + 3000)
        func viewer(_ host: Int, _ port: Int) -> OSCPeer {
            OSCPeer(address: SocketAddress.resolve(host: "127.1.\(host / 250).\(host % 250 + 1)", port: port)!,
                    access: .readOnly)
        }
        func ping(from sender: OSCPeer) -> String? {
            errorReason(c.handle(.bundle([OSCMessage("/ping")], at: due), from: sender))
        }
        // One sender: 256, then refused.
        for _ in 0..<BundleScheduler.senderQuota.bundles { #expect(ping(from: viewer(0, 9000)) == nil) }
        #expect(ping(from: viewer(0, 9000))?.contains("this client has 256 bundles") == true)
        // Other ports of the same host: 1,024 in all, then refused.
        for port in 9001...9003 {
            for _ in 0..<BundleScheduler.senderQuota.bundles { _ = ping(from: viewer(0, port)) }
        }
        #expect(scheduler.waiting == BundleScheduler.hostQuota.bundles)
        #expect(ping(from: viewer(0, 9004))?.contains("this host has 1024 bundles") == true)
        // Viewers on many hosts: at most capacity - reserve together.
        let limited = BundleScheduler.capacity - BundleScheduler.reserve
        var host = 1
        while scheduler.waiting < limited {
            for port in 9000..<9004 {
                for _ in 0..<BundleScheduler.senderQuota.bundles where scheduler.waiting < limited {
                    _ = ping(from: viewer(host, port))
                }
            }
            host += 1
        }
        #expect(ping(from: viewer(host + 1, 9000))?.contains("without full access") == true)
        // The engineer's cue still waits for its time, and lands.
        let cue = c.handle(.bundle([OSCMessage("/matrix/1/1", [.float(0.5)])], at: due), from: peer)
        #expect(errorReason(cue) == nil, "\(cue)")
        #expect(scheduler.waiting == limited + 1)
    }
}
