import Foundation
import Synchronization
import SceneModel
import SystemSupport
import Testing
@testable import MixCore

/// What the audio thread promises whatever it is handed: a change it cannot
/// use is ignored or clamped, never a trap or a non-finite sample; a meter
/// never drops a peak to a racing reader; the cue list is in time order.
@Suite struct AudioThreadContractTests {
    /// NaN, infinite, negative and absurd fade times (10¹² s is past 2³¹
    /// samples), and targets that are not numbers, handed to the kernel
    /// straight: every output stays finite and the rig keeps playing.
    @Test func absurdChangesLeaveEveryOutputFinite() {
        let rig = OfflineRig(inputs: 2, outputs: 2)
        let p = rig.mixer.parameters
        rig.playSine(input: 1, frequency: 440, amplitude: 0.5)
        rig.playConstant(input: 2, 0.25)
        rig.submit([level(p.crosspoint(1, 1), 1), level(p.crosspoint(2, 2), 1)])
        rig.render(periods: 4)
        let times: [Float] = [.nan, .infinity, -.infinity, -1, 1e12, 3e9, .greatestFiniteMagnitude, .leastNonzeroMagnitude]
        for seconds in times {
            rig.submit([level(p.crosspoint(1, 1), 0.5, seconds: seconds), level(p.sourceVolume(2), 2, seconds: seconds),
                        linear(p.sourcePan(1), 0.5, seconds: seconds), linear(p.outputDelay(2), 0.001, seconds: seconds)])
            rig.render(periods: 3)
        }
        for value: Float in [.nan, .infinity, -.infinity] {
            rig.submit([Change(ramp: Int32(p.crosspoint(1, 1)), position: value, value: value, seconds: 0.01),
                        Change(ramp: Int32(p.outputVolume(1)), position: value, value: 1, seconds: 0),
                        Change(ramp: Int32(p.outputDelay(1)), position: value, value: value, seconds: value),
                        Change(ramp: Int32.max, position: 1, value: 1, seconds: 0),
                        Change(ramp: -5, position: 1, value: 1, seconds: 0)])
            rig.render(periods: 3)
        }
        rig.submit([level(p.crosspoint(1, 1), 1, seconds: 0), linear(p.sourcePan(1), 0, seconds: 0)])
        rig.render(seconds: 0.1)
        #expect(rig.recorded.allSatisfy { $0.allSatisfy(\.isFinite) })
        // Still a mixer: the tone at unity on output 1 at the end.
        let last = rig.recorded[0].suffix(480)
        #expect((last.map(abs).max() ?? 0) > 0.45, "output 1 plays the tone again")
    }

    /// The two conversions on the audio thread that could trap (issue 33):
    /// a direct out's tap read from its slot (`Int32` of a value at or past
    /// 2³¹, or not a number) and a source meter's sum (`UInt64` of NaN, which
    /// `min` lets through). Every value in those slots renders: the direct
    /// outs stay finite, the meters finite and at most their ceilings.
    @Test func absurdDirectTapsAndSourceGainsNeverTrap() {
        let frames = 64
        let mixer = Mixer(scene: Scene(inputs: 2, outputs: 1), panLaw: .balance, layout: OutputLayout(outputs: 1))
        mixer.setSampleRate(48_000)
        mixer.meters.setEnabled(true)
        let p = mixer.parameters
        let buffers = (0..<5).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: frames) }
        defer { buffers.forEach { $0.deallocate() } }
        for k in 0..<frames { (buffers[0][k], buffers[1][k]) = (0.5, -0.5) }
        let ins = [UnsafePointer(buffers[0]), UnsafePointer(buffers[1])]
        let outs = [buffers[2]]
        let directs: [UnsafeMutablePointer<Float>?] = [buffers[3], buffers[4]]
        let values: [Float] = [.nan, .infinity, -.infinity, 3e9, -3e9, 2_147_483_648, .greatestFiniteMagnitude, 1.5, 2, 1]
        for value in values {
            mixer.submit([Change(ramp: Int32(p.sourceDirect(1)), position: value, value: value, seconds: 0),
                          Change(ramp: Int32(p.sourceDirect(2)), position: 2, value: 2, seconds: 0),
                          Change(ramp: Int32(p.sourceVolume(2)), position: value, value: value, seconds: 0)])
            for _ in 0..<3 {
                _ = mixer.begin(frames: frames)
                ins.withUnsafeBufferPointer { i in
                    outs.withUnsafeBufferPointer { o in
                        directs.withUnsafeBufferPointer { d in
                            mixer.render(inputs: i.baseAddress!, outputs: o.baseAddress!, directs: d.baseAddress!, frames: frames)
                        }
                    }
                }
                #expect((0..<frames).allSatisfy { buffers[3][$0].isFinite && buffers[4][$0].isFinite }, "\(value)")
            }
            let taken = mixer.meters.take(inputs: 2, outputs: 1)
            #expect(taken.peak.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1e6 }, "\(value): \(taken.peak)")
            #expect(taken.sumOfSquares.allSatisfy { $0.isFinite && $0 >= 0 }, "\(value): \(taken.sumOfSquares)")
        }
    }

    /// A period longer than the kernel was made for (`maxFrames`; JACK asks
    /// for at most 8192 frames, the default) is silence, and no stage
    /// touches a buffer past that length: the limiters, of a group with
    /// lanes to spare, used to read and write their spare lane's buffer
    /// (`maxFrames` long) for the whole period. Periods of the right length
    /// then render as before.
    @Test func aPeriodLongerThanTheKernelIsSilence() {
        var scene = Scene(inputs: 2, outputs: 3)
        for m in 0..<3 { scene.outputs[m].limiter.on = true }
        scene.crosspoints[1, 1] = 1
        let mixer = Mixer(scene: scene, panLaw: .balance, layout: OutputLayout(outputs: 3, monoOutputs: [1, 2, 3]),
                          maxFrames: 64)
        mixer.setSampleRate(48_000)
        let long = 4096
        // Inputs 0–1, outputs 2–4, direct outs 5–6, the listen's sides 7–8.
        let buffers = (0..<9).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: long) }
        defer { buffers.forEach { $0.deallocate() } }
        let ins = [UnsafePointer(buffers[0]), UnsafePointer(buffers[1])]
        let outs = [buffers[2], buffers[3], buffers[4]]
        let directs: [UnsafeMutablePointer<Float>?] = [buffers[5], buffers[6]]
        let listen: [UnsafeMutablePointer<Float>?] = [buffers[7], buffers[8]]
        func period(_ frames: Int) {
            for k in 0..<frames { (buffers[0][k], buffers[1][k]) = (0.25, 0.25) }
            for m in 2..<9 { buffers[m].update(repeating: .nan, count: frames) }
            _ = mixer.begin(frames: frames)
            ins.withUnsafeBufferPointer { i in
                outs.withUnsafeBufferPointer { o in
                    directs.withUnsafeBufferPointer { d in
                        listen.withUnsafeBufferPointer { l in
                            mixer.render(inputs: i.baseAddress!, outputs: o.baseAddress!, directs: d.baseAddress!,
                                         listen: l.baseAddress!, frames: frames)
                        }
                    }
                }
            }
        }
        for _ in 0..<40 { period(64) }
        #expect(abs(buffers[2][63] - 0.25) < 1e-6, "output 1 carries input 1, through its limiter: \(buffers[2][63])")
        for _ in 0..<3 {
            // (Run, the limiters would give out what their lookahead holds.)
            period(long)
            #expect((2..<9).allSatisfy { m in (0..<long).allSatisfy { buffers[m][$0] == 0 } },
                    "a long period is silence: outputs, direct outs and the listen")
        }
        for _ in 0..<40 { period(64) }
        #expect(abs(buffers[2][63] - 0.25) < 1e-6, "output 1 carries input 1 again: \(buffers[2][63])")
        #expect((2..<9).allSatisfy { m in (0..<64).allSatisfy { buffers[m][$0].isFinite } })
    }

    /// The fade lengths the kernel takes: NaN and negative jump, anything
    /// past an hour takes an hour, and nothing overflows an Int32.
    @Test func fadeLengthsAreClamped() {
        #expect(RenderKernel.fadeSamples(.nan, rate: 48_000) == 0)
        #expect(RenderKernel.fadeSamples(-3, rate: 48_000) == 0)
        #expect(RenderKernel.fadeSamples(0.5, rate: 48_000) == 24_000)
        #expect(RenderKernel.fadeSamples(1e12, rate: 48_000) == 3600 * 48_000)
        #expect(RenderKernel.fadeSamples(.infinity, rate: 48_000) == 3600 * 48_000)
        #expect(RenderKernel.fadeSamples(3000, rate: 1e6) == 2_000_000_000)
    }

    /// A reader takes peaks while a writer raises them, as the meters thread
    /// and the audio thread do. Each raise is to a larger value than the
    /// last; whenever the peak is found below a raise just made, a take under
    /// way or begun meanwhile must have carried it away. (The single compare-and-
    /// exchange this replaced lost such peaks.)
    /// The meters thread's side and the audio thread's, shared.
    final class Race: @unchecked Sendable {
        let bank = MeterBank(capacity: 1)
        let takesBegun = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
    }

    @Test func aPeakIsNeverLostToARacingReader() async {
        let race = Race()
        // What each take found, by the number it began with.
        let reader = Task.detached { [race] in
            var found: [Int: UInt32] = [:]
            while !race.stop.load(ordering: .sequentiallyConsistent) {
                let number = race.takesBegun.add(1, ordering: .sequentiallyConsistent).newValue
                let bits = race.bank.takePeak(channel: 0)
                if bits != 0 { found[number] = bits }
            }
            return found
        }
        while race.takesBegun.load(ordering: .sequentiallyConsistent) < 100 { await Task.yield() } // racing from here
        // Until the reader has taken 1,000,000 times while the writer raised
        // (a few tenths of a second), or 10 s on a machine that never runs both.
        var suspects: [(value: UInt32, first: Int, last: Int)] = []
        let deadline = ContinuousClock.now + .seconds(10)
        var rounds = 0
        let start = race.takesBegun.load(ordering: .relaxed)
        while race.takesBegun.load(ordering: .relaxed) - start < 1_000_000 && (rounds % 1024 != 0 || ContinuousClock.now < deadline) {
            rounds += 1
            let k = rounds % 8_000_000 + 1
            let bits = Float(k).bitPattern // increasing patterns (exact floats): every raise tries to store
            let before = race.takesBegun.load(ordering: .sequentiallyConsistent)
            race.bank.raisePeak(channel: 0, to: bits)
            let now = race.bank.peaks[0].load(ordering: .sequentiallyConsistent)
            let after = race.takesBegun.load(ordering: .sequentiallyConsistent)
            if now < bits { suspects.append((bits, before, after)) } // take `before` may be under way
        }
        race.stop.store(true, ordering: .sequentiallyConsistent)
        let found = await reader.value
        let lost = suspects.filter { suspect in
            !(suspect.first...suspect.last).contains { (found[$0] ?? 0) >= suspect.value }
        }
        #expect(lost.isEmpty, "\(lost.count) of \(rounds) peaks lost (\(suspects.count) taken meanwhile), e.g. \(lost.prefix(3))")
    }

    /// Cues come out in time order whatever order they went in, equal
    /// times in arrival order.
    @Test func theCueListKeepsTimeOrder() {
        var random = SplitMix(seed: 7)
        var list = CueList(capacity: 1024)
        let base: UInt64 = 1_000_000_000_000 // JACK's microseconds, some days after boot
        var batches: [ChangeBatch.Pointer] = []
        defer { batches.forEach(ChangeBatch.free) }
        for k in 0..<1024 {
            let batch = ChangeBatch.make(staged: [], due: Double(k), submitted: 0) // the time: arrival order
            batch.pointee.due = base + UInt64(random.next() % 10_000 / 3 * 3)
            batches.append(batch)
            let inserted = list.insert(batch)
            #expect(inserted)
        }
        let extra = ChangeBatch.make(staged: [], due: 1, submitted: 0)
        batches.append(extra)
        let insertedPastCapacity = list.insert(extra)
        #expect(!insertedPastCapacity, "full at its capacity")
        var out: [ChangeBatch.Pointer] = []
        while let batch = list.removeFirst() { out.append(batch) }
        let empty = list.isEmpty
        #expect(out.count == 1024 && empty)
        for (a, b) in zip(out, out.dropFirst()) {
            #expect(a.pointee.due < b.pointee.due || (a.pointee.due == b.pointee.due && a.pointee.time < b.pointee.time))
        }
    }

    /// The cue due first is the one a period looks at: its offset, 0 once
    /// its time has passed, none beyond the period (offline: periods in frames).
    @Test func theNextCueIsTheOneDueFirst() {
        var list = CueList(capacity: 4)
        let late = ChangeBatch.make(staged: [], due: 1, submitted: 0), early = ChangeBatch.make(staged: [], due: 1, submitted: 1)
        defer { [late, early].forEach(ChangeBatch.free) }
        late.pointee.due = 1000
        early.pointee.due = 900
        _ = list.insert(late)
        _ = list.insert(early)
        func span(_ start: UInt64) -> PeriodSpan { PeriodSpan(start: start, end: start + 64) }
        let offsets = [list.nextOffset(in: span(896), frames: 64), list.nextOffset(in: span(1000), frames: 64),
                       list.nextOffset(in: span(800), frames: 64)]
        #expect(offsets == [4, 0, nil])
        let first = list.removeFirst()
        #expect(first == early)
        let then = list.nextOffset(in: span(960), frames: 64)
        #expect(then == 40)
    }
}
