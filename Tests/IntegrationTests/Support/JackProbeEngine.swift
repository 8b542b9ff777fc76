#if canImport(Glibc)
import Glibc
#endif
import CJack
import Synchronization

/// The audio-thread half of a ``JackProbe``: everything its JACK process
/// callback touches, allocated up front.
///
/// The callback allocates nothing and takes no lock. It reads the test's
/// requests (signals to play, start/stop recording) from atomics and
/// publishes its progress (frames recorded) through atomics. Recorded samples
/// are only appended beyond the published frame count, so the test thread can
/// read everything before that count at any time.
final class JackProbeEngine: @unchecked Sendable {
    /// Recording states, stored in ``recordState``.
    enum RecordState {
        static let idle = 0
        /// The test asked to start; the next period resets and starts.
        static let armed = 1
        static let recording = 2
        /// The test asked to stop; the next period acknowledges with `idle`.
        static let stopRequested = 3
    }

    let client: OpaquePointer
    let sampleRate: Double
    let playCount: Int
    let recordCount: Int
    /// Frames each recording channel can hold.
    let capacity: Int
    /// Periods whose start frame time can be remembered.
    let periodCapacity: Int

    // Set up before activation, read-only afterwards.
    private let playPorts: UnsafeMutablePointer<OpaquePointer?>
    private let recordPorts: UnsafeMutablePointer<OpaquePointer?>

    // Written by the test, read by the audio thread.
    /// Per play port: the packed ``JackProbe/Signal`` (see ``pack(_:)``).
    private let signals: UnsafeMutablePointer<Atomic<UInt64>>
    let recordState = Atomic<Int>(RecordState.idle)

    // Written by the audio thread, read by the test.
    let recordedFrames = Atomic<Int>(0)
    let recordedPeriods = Atomic<Int>(0)
    let firstFrameTime = Atomic<UInt32>(0)
    let overflowed = Atomic<Bool>(false)
    let processCycles = Atomic<Int>(0)
    let xruns = Atomic<Int>(0)
    let serverShutDown = Atomic<Bool>(false)

    // Audio thread only (and the test thread once published).
    private let phases: UnsafeMutablePointer<Double>
    let channels: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    let periodOffsets: UnsafeMutablePointer<Int>
    let periodFrameTimes: UnsafeMutablePointer<UInt32>
    /// Each period's span of JACK's microsecond clock (`jack_get_cycle_times`).
    let periodCycleStarts: UnsafeMutablePointer<UInt64>
    let periodCycleEnds: UnsafeMutablePointer<UInt64>
    private var writePosition = 0
    private var periodCount = 0

    init(client: OpaquePointer, sampleRate: Int, playPorts: [OpaquePointer], recordPorts: [OpaquePointer],
         capacity: Int) {
        self.client = client
        self.sampleRate = Double(sampleRate)
        self.playCount = playPorts.count
        self.recordCount = recordPorts.count
        self.capacity = capacity
        // JACK periods are at least 16 frames; the margin covers a shorter
        // last period.
        self.periodCapacity = capacity / 16 + 64

        self.playPorts = .allocate(capacity: max(1, playPorts.count))
        self.playPorts.initialize(from: playPorts.map { Optional($0) }, count: playPorts.count)
        self.recordPorts = .allocate(capacity: max(1, recordPorts.count))
        self.recordPorts.initialize(from: recordPorts.map { Optional($0) }, count: recordPorts.count)

        signals = .allocate(capacity: max(1, playPorts.count))
        phases = .allocate(capacity: max(1, playPorts.count))
        for index in 0..<playPorts.count {
            (signals + index).initialize(to: Atomic<UInt64>(0))
            (phases + index).initialize(to: 0)
        }

        // Initialising the memory also touches every page, so the audio
        // thread never takes a page fault on first write.
        channels = .allocate(capacity: max(1, recordPorts.count))
        for index in 0..<recordPorts.count {
            let channel = UnsafeMutablePointer<Float>.allocate(capacity: capacity)
            channel.initialize(repeating: 0, count: capacity)
            (channels + index).initialize(to: channel)
        }
        periodOffsets = .allocate(capacity: periodCapacity)
        periodOffsets.initialize(repeating: 0, count: periodCapacity)
        periodFrameTimes = .allocate(capacity: periodCapacity)
        periodFrameTimes.initialize(repeating: 0, count: periodCapacity)
        periodCycleStarts = .allocate(capacity: periodCapacity)
        periodCycleStarts.initialize(repeating: 0, count: periodCapacity)
        periodCycleEnds = .allocate(capacity: periodCapacity)
        periodCycleEnds.initialize(repeating: 0, count: periodCapacity)
    }

    deinit {
        for index in 0..<recordCount { channels[index].deallocate() }
        channels.deallocate()
        periodOffsets.deallocate()
        periodFrameTimes.deallocate()
        periodCycleStarts.deallocate()
        periodCycleEnds.deallocate()
        signals.deinitialize(count: playCount)
        signals.deallocate()
        phases.deallocate()
        playPorts.deallocate()
        recordPorts.deallocate()
    }

    // MARK: Test side

    func setSignal(_ signal: JackProbe.Signal, port index: Int) {
        signals[index].store(Self.pack(signal), ordering: .relaxed)
    }

    /// Packs a signal into one atomic word so the audio thread never sees a
    /// frequency from one request and an amplitude from another: frequency
    /// bits high, amplitude bits low; frequency 0 means a constant level, a
    /// negative one an impulse every −frequency frames.
    static func pack(_ signal: JackProbe.Signal) -> UInt64 {
        let frequency: Float
        let level: Float
        switch signal {
        case .silence: (frequency, level) = (0, 0)
        case .sine(let hertz, let amplitude): (frequency, level) = (hertz, amplitude)
        case .constant(let value): (frequency, level) = (0, value)
        case .impulses(let every, let amplitude): (frequency, level) = (-Float(max(1, every)), amplitude)
        }
        return UInt64(frequency.bitPattern) << 32 | UInt64(level.bitPattern)
    }

    // MARK: Audio thread

    /// The process callback body. Called on JACK's thread only.
    func process(frames: Int) {
        let nframes = jack_nframes_t(frames)
        var frameTime: jack_nframes_t = 0
        var cycle: (start: jack_time_t, end: jack_time_t) = (0, 0)
        var periodMicroseconds: Float = 0
        if jack_get_cycle_times(client, &frameTime, &cycle.start, &cycle.end, &periodMicroseconds) != 0 {
            frameTime = jack_last_frame_time(client)
            cycle = (0, 0)
        }
        processCycles.wrappingAdd(1, ordering: .relaxed)
        play(frames: frames, nframes: nframes)
        record(frames: frames, nframes: nframes, frameTime: frameTime, cycle: cycle)
    }

    private func play(frames: Int, nframes: jack_nframes_t) {
        let twoPi = 2 * Double.pi
        for index in 0..<playCount {
            guard let raw = jack_port_get_buffer(playPorts[index], nframes) else { continue }
            let output = raw.assumingMemoryBound(to: Float.self)
            let packed = signals[index].load(ordering: .relaxed)
            let frequency = Float(bitPattern: UInt32(truncatingIfNeeded: packed >> 32))
            let level = Float(bitPattern: UInt32(truncatingIfNeeded: packed))
            if frequency == 0 {
                output.update(repeating: level, count: frames)
                continue
            }
            if frequency < 0 {
                // The phase counts frames since the last impulse.
                let every = Double(-frequency)
                var since = phases[index]
                for frame in 0..<frames {
                    output[frame] = since == 0 ? level : 0
                    since += 1
                    if since >= every { since = 0 }
                }
                phases[index] = since
                continue
            }
            // Phase in double precision so long recordings stay in tune.
            var phase = phases[index]
            let increment = twoPi * Double(frequency) / sampleRate
            for frame in 0..<frames {
                output[frame] = level * Float(sin(phase))
                phase += increment
                if phase >= twoPi { phase -= twoPi }
            }
            phases[index] = phase
        }
    }

    private func record(frames: Int, nframes: jack_nframes_t, frameTime: jack_nframes_t,
                        cycle: (start: jack_time_t, end: jack_time_t)) {
        var state = recordState.load(ordering: .acquiring)
        if state == RecordState.armed {
            writePosition = 0
            periodCount = 0
            overflowed.store(false, ordering: .relaxed)
            recordedFrames.store(0, ordering: .relaxed)
            recordedPeriods.store(0, ordering: .relaxed)
            firstFrameTime.store(frameTime, ordering: .relaxed)
            // A stop requested meanwhile wins: then this period is not recorded.
            state = recordState.compareExchange(expected: RecordState.armed, desired: RecordState.recording,
                                                ordering: .acquiringAndReleasing).exchanged
                ? RecordState.recording : recordState.load(ordering: .acquiring)
        }
        if state == RecordState.stopRequested {
            _ = recordState.compareExchange(expected: RecordState.stopRequested, desired: RecordState.idle,
                                        ordering: .acquiringAndReleasing)
            return
        }
        guard state == RecordState.recording else { return }

        let count = min(frames, capacity - writePosition)
        if count < frames { overflowed.store(true, ordering: .relaxed) }
        guard count > 0 else { return }
        for index in 0..<recordCount {
            let destination = channels[index] + writePosition
            if let raw = jack_port_get_buffer(recordPorts[index], nframes) {
                destination.update(from: raw.assumingMemoryBound(to: Float.self), count: count)
            } else {
                destination.update(repeating: 0, count: count)
            }
        }
        if periodCount < periodCapacity {
            periodOffsets[periodCount] = writePosition
            periodFrameTimes[periodCount] = frameTime
            periodCycleStarts[periodCount] = cycle.start
            periodCycleEnds[periodCount] = cycle.end
            periodCount += 1
        }
        writePosition += count
        // Publish: everything before these counts is written and final.
        recordedPeriods.store(periodCount, ordering: .releasing)
        recordedFrames.store(writePosition, ordering: .releasing)
    }
}

// MARK: C callbacks (nonisolated globals: JACK calls them on its own threads)

/// `JackProcessCallback`: hands the period to the engine without retaining it.
func jackProbeProcess(_ frames: jack_nframes_t, _ context: UnsafeMutableRawPointer?) -> Int32 {
    guard let context else { return 0 }
    Unmanaged<JackProbeEngine>.fromOpaque(context)._withUnsafeGuaranteedRef { engine in
        engine.process(frames: Int(frames))
    }
    return 0
}

/// `JackXRunCallback`: counts xruns the server reports.
func jackProbeXrun(_ context: UnsafeMutableRawPointer?) -> Int32 {
    guard let context else { return 0 }
    Unmanaged<JackProbeEngine>.fromOpaque(context)._withUnsafeGuaranteedRef { engine in
        _ = engine.xruns.wrappingAdd(1, ordering: .relaxed)
    }
    return 0
}

/// `JackShutdownCallback`: the server went away (or threw the client out).
func jackProbeShutdown(_ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    Unmanaged<JackProbeEngine>.fromOpaque(context)._withUnsafeGuaranteedRef { engine in
        engine.serverShutDown.store(true, ordering: .relaxed)
    }
}
