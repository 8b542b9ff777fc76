import Foundation
import Testing

extension Integration {
/// Bundles with a time tag: at their time, to the frame.
@Suite struct TimedBundleTests {
    /// The bundle's change starts within one frame of the frame JACK's clock
    /// gives for its time tag, measured on the recorded audio.
    ///
    /// JACK maps a time to a frame from the current period's timing, so on
    /// a loaded machine the answer can move by a few frames from one period
    /// to the next. The test asks just before sending and again once the
    /// rig has handled the bundle (a `/ping` after it is answered); the rig
    /// asked in between, and the change must start within a frame of that
    /// span (one frame when the machine is quiet).
    ///
    /// On a loaded machine the recorder may miss cycles (JACK's xruns): a
    /// take whose due frame fell in such a gap cannot tell, and is taken
    /// again (at most three takes); a take that shows the change anywhere
    /// else fails.
    @Test(arguments: [64, 256])
    func aTimedBundleChangesTheAudioAtItsFrame(periodSize: Int) async throws {
        try await withRig(periodSize: periodSize) { rig in
            rig.source.setSignalOnAllPlayPorts(.constant(0.5))
            var measured = false
            for take in 1...3 where !measured {
                try await rig.sendAndSettle("/matrix/1/1", .float(1), .float(0))
                try await Task.sleep(for: .milliseconds(50))
                var before: UInt32 = 0, after: UInt32 = 0
                let recording = try await rig.record(seconds: 1.0) { _ in
                    let tag = OSCTestClient.TimeTag.fromNow(0.5)
                    before = try rig.recorder.frameTime(atUnixTime: tag.unixTime)
                    try rig.osc.sendBundle([.init("/matrix/1/1", arguments: [.float(0), .float(0)])], timeTag: tag)
                    try await rig.ping()
                    after = try rig.recorder.frameTime(atUnixTime: tag.unixTime)
                }
                guard let first = recording.sampleIndex(atFrameTime: before),
                      let last = recording.sampleIndex(atFrameTime: after) else {
                    print("take \(take): frames \(before)…\(after) not in the recording (gaps: \(recording.gaps)); again")
                    continue
                }
                measured = true
                let expected = min(first, last)...max(first, last)
                let out = recording.channels[0]
                // Without a fade the gain still glides to the end of its period,
                // so the first sample below 0.5 is the first one it touched.
                let changed = try #require(out.firstIndex { $0 < 0.5 }, "the bundle took effect")
                print("timed bundle at \(periodSize) frames: sample \(changed), JACK's map \(expected)")
                #expect(changed >= expected.lowerBound - 1 && changed <= expected.upperBound + 1,
                        "took effect at sample \(changed); JACK's clock gave \(expected) for its time tag")
                #expect(out[0..<max(0, changed)].allSatisfy { $0 == 0.5 }, "nothing changed before")
                #expect(out[(changed + periodSize)...].allSatisfy { $0 == 0 }, "silent after")
            }
            #expect(measured, "three takes, each with its due frame in a gap of the recording")
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
