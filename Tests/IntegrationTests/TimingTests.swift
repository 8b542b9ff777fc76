import Foundation
import Testing

extension Integration {
/// Bundles with a time tag: at their time, to the frame.
@Suite struct TimedBundleTests {
    /// The bundle's change starts within one frame of the frame JACK's clock
    /// gives for its time tag in the period the time falls in, measured on
    /// the recorded audio: the recorder keeps each period's span of JACK's
    /// microsecond clock (`jack_get_cycle_times`) and places the tag's time
    /// in it, as the rig does (a frame either way for the test's own reading
    /// of the wall clock against JACK's). A map made ahead of time, from the
    /// period under way then, is off by a few frames on a busy machine; the
    /// test prints it beside.
    ///
    /// On a loaded machine the recorder may miss cycles (JACK's xruns): a
    /// take whose due time fell in such a gap cannot tell, and is taken
    /// again (at most three takes); a take that shows the change anywhere
    /// else fails.
    @Test(arguments: [64, 256])
    func aTimedBundleChangesTheAudioAtItsFrame(periodSize: Int) async throws {
        try await withRig(periodSize: periodSize) { rig in
            try await Self.cueLandsOnItsFrame(rig, periodSize: periodSize)
        }
    }

    /// `/matrix/1/1 0` sent 0.5 s ahead lands within a frame of its time on
    /// the recorded audio (the measurement described above).
    static func cueLandsOnItsFrame(_ rig: CrosspointRig, periodSize: Int) async throws {
        rig.source.setSignalOnAllPlayPorts(.constant(0.5))
        var measured = false
        for take in 1...3 where !measured {
            try await rig.sendAndSettle("/matrix/1/1", .float(1), .float(0))
            try await Task.sleep(for: .milliseconds(50))
            var due: UInt64 = 0, ahead: UInt32 = 0
            let recording = try await rig.record(seconds: 1.0) { _ in
                let tag = OSCTestClient.TimeTag.fromNow(0.5)
                due = try rig.recorder.jackTime(atUnixTime: tag.unixTime)
                ahead = try rig.recorder.frameTime(atUnixTime: tag.unixTime)
                try rig.osc.sendBundle([.init("/matrix/1/1", arguments: [.float(0), .float(0)])], timeTag: tag)
                try await rig.ping()
            }
            guard let expected = recording.sampleIndex(atJackTime: due) else {
                print("take \(take): JACK time \(due) not in the recording (gaps: \(recording.gaps)); again")
                continue
            }
            measured = true
            let out = recording.channels[0]
            // Without a fade the gain still glides to the end of its period,
            // so the first sample below 0.5 is the first one it touched.
            let changed = try #require(out.firstIndex { $0 < 0.5 }, "the bundle took effect")
            print("timed bundle at \(periodSize) frames: sample \(changed), JACK's map in its period \(expected), made ahead \(recording.sampleIndex(atFrameTime: ahead).map(String.init) ?? "?")")
            #expect(abs(changed - expected) <= 1,
                    "took effect at sample \(changed); JACK's clock gave \(expected) for its time tag")
            #expect(out[0..<max(0, changed)].allSatisfy { $0 == 0.5 }, "nothing changed before")
            #expect(out[(changed + periodSize)...].allSatisfy { $0 == 0 }, "silent after")
        }
        #expect(measured, "three takes, each with its due time in a gap of the recording")
    }

    /// A viewer fills its quota of waiting bundles (issue 32: 10,100 `/ping`
    /// bundles an hour ahead from one viewer took every place, and the
    /// engineer's next cue was refused): its 257th is refused, and the
    /// engineer's cue still lands on its frame.
    @Test func aViewerFillingItsBundleQuotaLeavesTheEngineersCueOnItsFrame() async throws {
        try await withRig(arguments: ["--read-only", "127.0.0.2"]) { rig in
            let viewer = try OSCTestClient(target: .init(host: "127.0.0.1", port: rig.oscPort), bindHost: "127.0.0.2")
            defer { viewer.close() }
            let hour = OSCTestClient.TimeTag.fromNow(3000)
            for _ in 0..<256 { try viewer.sendBundle([.init("/ping")], timeTag: hour) }
            try viewer.send("/ping")
            _ = try await viewer.waitFor(address: "/pong", timeout: .seconds(5))
            #expect(try viewer.drain().filter { $0.address == "/error" }.isEmpty, "256 wait")
            try viewer.sendBundle([.init("/ping")], timeTag: hour)
            let refused = try await viewer.waitFor(address: "/error", timeout: .seconds(5))
            #expect(refused.argument(1)?.stringValue?.contains("this client has 256 bundles") == true, "\(refused)")
            try await Self.cueLandsOnItsFrame(rig, periodSize: 64)
        }
    }

    @Test func aLateBundleAppliesAtOnceAndSaysHowLate() async throws {
        try await withRig { rig in
            try rig.osc.sendBundle([.init("/matrix/1/1", arguments: [.float(0.25)])], timeTag: .fromNow(-1))
            let late = try await rig.osc.waitFor(address: "/late")
            #expect(late.argument(0) == .string("/matrix/1/1"))
            let seconds = try #require(late.argument(1)?.floatValue)
            #expect(seconds > 0.9 && seconds < 1.5, "\(seconds) s late")
            try rig.osc.send("/matrix/1/1")
            #expect(try await rig.osc.waitFor(address: "/matrix/1/1").arguments == [.float(0.25)])
            try rig.osc.send("/status")
            #expect(try await rig.osc.waitFor(address: "/status/late_bundles").arguments == [.int32(1)])
        }
    }
}
}


extension Integration {
/// Changes of any size take effect in one period.
@Suite struct AtomicChangeTests {
    /// A 130x130 rig (16,900 crosspoints) recalls a preset in which every
    /// crosspoint differs: every output starts moving in the same frame.
    @Test func aRecallOfEveryCrosspointStartsInOneFrame() async throws {
        let size = 130
        try await withRig(inputs: size, outputs: size) { rig in
            rig.source.setSignalOnAllPlayPorts(.constant(0.25))
            // "spread": every input to every output at 0.01.
            try await rig.sendAndSettle("/matrix/*/*", .float(0.01), .float(0))
            try rig.osc.send("/preset/save", arguments: [.string("spread")])
            _ = try await rig.osc.waitFor(address: "/preset/saved", timeout: .seconds(20))
            // Back to identity: every crosspoint changes again.
            try rig.osc.send("/matrix/map", arguments: (1...size).map { .int32(Int32($0)) })
            try await rig.ping()
            try await Task.sleep(for: .milliseconds(100))
            let recording = try await rig.record(seconds: 0.5) { _ in
                try rig.osc.send("/preset/recall", arguments: [.string("spread"), .float(0)])
            }
            let starts = recording.channels.map { channel in channel.firstIndex { $0 != 0.25 } }
            let first = try #require(starts[0], "output 1 changed")
            #expect(starts.allSatisfy { $0 == first }, "first changed samples: \(Set(starts.map { $0 ?? -1 }).sorted())")
            let settled = recording.channels.map { $0.last ?? 0 }
            #expect(settled.allSatisfy { abs($0 - 0.25 * 0.01 * Float(size)) < 1e-4 }, "every output at the preset's level")
        }
    }
}
}
