import Delivery
import Foundation
import MixCore
import OSC
import RigControl
import Testing

private func decibels(_ gain: Float) -> Float { FaderLaw.decibels(gain: gain) }

private func near(_ a: Float, _ b: Float, _ tolerance: Float = 1e-4) -> Bool { abs(a - b) <= tolerance }

/// Relative control: `ADDRESS/delta step [fade]` on every continuous form
/// (Controller+Steps.swift).
@Suite struct DeltaTests {
    @Test func everyFormStepsInItsOwnUnit() {
        let c = makeController()
        c.send("/source/1/db/delta", .float(3))
        #expect(near(decibels(c.scene.sources[0].volume), 3), "dB")
        c.send("/source/2/volume/delta", .float(-6))
        #expect(near(decibels(c.scene.sources[1].volume), -6), "a linear level steps in dB")
        c.send("/source/3/fader/delta", .float(-0.25))
        #expect(near(decibels(c.scene.sources[2].volume), -10), "0.75 - 0.25 is 0.5 on the fader: -10 dB")
        c.send("/source/1/pan/delta", .float(0.25))
        c.send("/source/1/pan/delta", .int32(-1))
        #expect(c.scene.sources[0].pan == -0.75)
        c.send("/matrix/1/1/delta", .float(-6))
        #expect(near(decibels(c.scene.crosspoints[1, 1]), -6), "the crosspoint's linear form steps in dB")
        c.send("/matrix/2/2/db/delta", .double(-12))
        #expect(near(decibels(c.scene.crosspoints[2, 2]), -12))
        c.send("/matrix/3/3/fader/delta", .float(0.1))
        #expect(near(decibels(c.scene.crosspoints[3, 3]), 4))
        c.send("/output/1/volume/delta", .float(1.5))
        c.send("/output/2/db/delta", .float(-1.5))
        c.send("/output/3/fader/delta", .float(-0.75))
        #expect(near(decibels(c.scene.outputs[0].volume), 1.5) && near(decibels(c.scene.outputs[1].volume), -1.5))
        #expect(c.scene.outputs[2].volume == 0, "fader 0 is off")
        c.send("/output/1/delay/delta", .float(12.5))
        c.send("/output/1/delay/delta", .float(-2.5))
        #expect(c.scene.outputs[0].delay == 10, "milliseconds")
        c.send("/master/volume/delta", .float(-3))
        c.send("/master/db/delta", .float(-3))
        c.send("/master/fader/delta", .float(0.05))
        #expect(near(decibels(c.scene.master.volume), -4), "-6 dB is fader 0.6; +0.05 is -4 dB")
    }

    @Test func aStepFromSilenceStartsAtMinus90() {
        let c = makeController()
        c.send("/matrix/1/2/db/delta", .float(6))
        #expect(near(decibels(c.scene.crosspoints[1, 2]), -84))
        c.send("/matrix/1/3/delta", .float(6))
        #expect(near(decibels(c.scene.crosspoints[1, 3]), -84))
        c.send("/matrix/1/4/fader/delta", .float(0.5))
        #expect(near(decibels(c.scene.crosspoints[1, 4]), -10), "fader 0 is silence")
        c.mixer.drainQueue()
        // Down from silence stays silent, and changes nothing.
        c.send("/matrix/2/1/db/delta", .float(-6))
        c.send("/matrix/2/1/delta", .float(-6))
        c.send("/matrix/2/1/fader/delta", .float(-0.5))
        #expect(c.scene.crosspoints[2, 1] == 0 && c.mixer.queuedChanges == 0)
        // And back to silence at -90.
        c.send("/matrix/1/2/db/delta", .float(-6))
        #expect(c.scene.crosspoints[1, 2] == 0)
    }

    @Test func stepsAreClampedToTheRange() {
        let c = makeController()
        c.send("/source/1/db/delta", .float(100))
        #expect(near(decibels(c.scene.sources[0].volume), 12))
        c.send("/source/1/volume/delta", .float(100))
        #expect(near(c.scene.sources[0].volume, 4, 1e-5) && c.scene.sources[0].volume <= 4, "linear: up to 4")
        c.send("/source/2/fader/delta", .float(5))
        #expect(near(decibels(c.scene.sources[1].volume), 10), "fader: up to 1.0, +10 dB")
        c.send("/source/3/db/delta", .float(-1e30))
        #expect(c.scene.sources[2].volume == 0)
        c.send("/source/1/pan/delta", .float(5))
        c.send("/source/2/pan/delta", .float(-5))
        #expect(c.scene.sources[0].pan == 1 && c.scene.sources[1].pan == -1)
        c.send("/output/1/delay/delta", .float(-50))
        #expect(c.scene.outputs[0].delay == 0)
        c.send("/output/2/delay/delta", .float(1e6))
        #expect(c.scene.outputs[1].delay == 500, "--max-delay-ms")
        // Pushing against the end changes nothing: no ramp, no feedback.
        c.mixer.drainQueue()
        c.send("/source/1/pan/delta", .float(0.1))
        c.send("/output/2/delay/delta", .float(1))
        c.send("/source/2/fader/delta", .float(0.1))
        #expect(c.mixer.queuedChanges == 0)
    }

    @Test func aLevelAboveAFormsRangeStepsFromWhereItIs() {
        let c = makeController()
        c.send("/source/1/volume", .float(4)) // +12 dB: fader position 1.05, shown as 1
        c.mixer.drainQueue()
        c.send("/source/1/fader/delta", .float(0.01))
        #expect(c.scene.sources[0].volume == 4 && c.mixer.queuedChanges == 0, "no jump down to the top of the fader")
        c.send("/source/1/fader/delta", .float(-0.01))
        #expect(decibels(c.scene.sources[0].volume) < 12.04 && decibels(c.scene.sources[0].volume) > 11)
    }

    @Test func aWildcardStepsEachTargetFromItsOwnValue() {
        let c = makeController()
        c.send("/source/2/db", .float(-6))
        c.send("/source/3/db", .float(-20))
        c.send("/source/4/volume", .float(0))
        c.send("/source/*/db/delta", .float(3))
        let levels = c.scene.sources.map { decibels($0.volume) }
        #expect(zip(levels, [3, -3, -17, -87] as [Float]).allSatisfy { near($0, $1) }, "\(levels)")
        c.send("/matrix/[1-2]/[1-2]/delta", .float(-6))
        #expect(near(decibels(c.scene.crosspoints[1, 1]), -6) && near(decibels(c.scene.crosspoints[2, 2]), -6))
        #expect(c.scene.crosspoints[1, 2] == 0, "silence minus 6 dB is silence")
    }

    @Test func deltasInOneBundleAddUp() {
        let c = makeController()
        _ = c.handle(.bundle([OSCMessage("/source/1/db/delta", [.float(3)]), OSCMessage("/source/1/db/delta", [.float(3)]),
                          OSCMessage("/source/1/pan/delta", [.float(0.5)]), OSCMessage("/source/1/pan/delta", [.float(0.25)])]),
                 from: peer)
        #expect(near(decibels(c.scene.sources[0].volume), 6))
        #expect(c.scene.sources[0].pan == 0.75)
        // A value, then a step from it.
        _ = c.handle(.bundle([OSCMessage("/output/1/delay", [.float(100)]), OSCMessage("/output/1/delay/delta", [.float(-25)])]),
                 from: peer)
        #expect(c.scene.outputs[0].delay == 75)
    }

    @Test func aFadeArgumentSetsTheRampTime() {
        let c = makeController()
        c.mixer.setSampleRate(48_000)
        c.send("/source/1/db/delta", .float(-6), .float(2.5))
        c.mixer.drainQueue()
        #expect(c.mixer.offlineKernel.pointee.ramp(c.mixer.parameters.sourceVolume(1)).remaining == 120_000)
        c.send("/source/1/pan/delta", .float(1), .int32(1))
        c.mixer.drainQueue()
        #expect(c.mixer.offlineKernel.pointee.ramp(c.mixer.parameters.sourcePan(1)).remaining == 48_000)
    }

    @Test func aStepIsFedBackLikeAnyChange() {
        let heard = Collected<OSCMessage>()
        let c = makeController(listeners: Heard(heard))
        c.send("/source/1/db/delta", .float(-10))
        #expect(heard.values.map(\.address) == ["/source/1/volume", "/source/1/db", "/source/1/fader"])
        let position = heard.values.last?.arguments.first?.number ?? -1
        #expect(near(Float(position), 0.5), "-10 dB is fader 0.5")
        guard case .message(let reply)? = c.send("/source/1/db").first, let db = reply.arguments.first?.number else {
            Issue.record("no reply"); return
        }
        #expect(near(Float(db), -10), "and queried like any value")
    }

    static let badSteps: [(String, [OSCArgument], String)] = [
        ("/source/1/db/delta", [OSCArgument.float(.nan)], "non-finite value at argument 1"),
        ("/source/1/volume/delta", [.float(.infinity)], "non-finite value at argument 1"),
        // A pattern refused whole names the first target that refused.
        ("/source/*/db/delta", [.double(-.infinity)], "/source/1/db/delta: non-finite value at argument 1"),
        ("/source/1/db/delta", [.string("up")], "wrong argument type 's' at 1, expected a number"),
        ("/source/1/pan/delta", [.bool(true)], "wrong argument type 'T' at 1, expected a number"),
        ("/source/1/db/delta", [], "expected 1 or 2 arguments (step [fade seconds]), got 0"),
        ("/source/*/fader/delta", [], "/source/1/fader/delta: expected 1 or 2 arguments (step [fade seconds]), got 0"),
        ("/matrix/1/1/delta", [.float(1), .float(1), .float(1)], "expected 1 or 2 arguments (step [fade seconds]), got 3"),
        ("/output/1/delay/delta", [.float(1), .float(.nan)], "non-finite value at argument 2"),
        ("/output/1/delay/delta", [.float(1), .string("slow")], "wrong argument type 's' at 2, expected a number"),
        ("/source/1/mute/delta", [.float(1)], "unknown address"),
        ("/source/1/name/delta", [.float(1)], "unknown address"),
        ("/master/mute/delta", [.float(1)], "unknown address"),
        ("/source/9/db/delta", [.float(1)], "source 9 out of range (1-4)"),
    ]

    @Test(arguments: badSteps)
    func badStepsChangeNothing(address: String, arguments: [OSCArgument], reason: String) {
        let c = makeController()
        let before = c.snapshot()
        #expect(errorReason(c.handle(.message(OSCMessage(address, arguments)), from: peer)) == reason)
        #expect(c.snapshot() == before)
        #expect(c.mixer.queuedChanges == 0)
    }

    @Test func aReadOnlyClientCannotStep() {
        let c = makeController()
        let reader = OSCPeer(address: SocketAddress.resolve(host: "127.0.0.1", port: 3)!, access: .readOnly)
        #expect(errorReason(c.handle(.message(OSCMessage("/source/1/db/delta", [.float(3)])), from: reader)) == "read-only")
        #expect(c.scene.sources[0].volume == 1)
    }

    /// A timed bundle's step is taken from the value at its time, not at its arrival.
    @Test func aTimedStepStepsFromTheValueAtItsTime() async throws {
        let c = makeController(scheduler: BundleScheduler(clock: StoppedClock()))
        _ = c.handle(.bundle([OSCMessage("/source/1/db/delta", [.float(3)])],
                             at: OSCTimeTag(unixTime: Date().timeIntervalSince1970 + 0.05)), from: peer)
        c.send("/source/1/db", .float(-10))
        try await Task.sleep(for: .milliseconds(80))
        c.releaseDueBundles()
        #expect(near(decibels(c.scene.sources[0].volume), -7))
        c.mixer.service()
        c.mixer.drainQueue()
        let target = c.mixer.offlineKernel.pointee.ramp(c.mixer.parameters.sourceVolume(1)).targetValue
        #expect(near(decibels(target), -7), "the audio follows: \(decibels(target)) dB")
    }
}

/// A change listener that keeps what it hears.
struct Heard: ChangeListeners {
    let heard: Collected<OSCMessage>
    init(_ heard: Collected<OSCMessage>) { self.heard = heard }
    func publish(_ messages: [OSCMessage]) { for message in messages { heard.append(message) } }
    var isEmpty: Bool { false }
}
