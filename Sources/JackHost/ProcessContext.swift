import CJack
import MIDI
import MixCore
import Synchronization

/// What the JACK process callback needs, allocated once: the mixer, our
/// ports, and room for the buffer pointers of each period, for as many
/// channels as a rig may ever have (`Mixer.channelLimit`), so that a rig
/// changing size never reallocates what the audio thread reads.
///
/// `process` is the trampoline: the only code on the audio thread that is not
/// `@_noLocks`, because it calls C (`jack_port_get_buffer`). It starts the
/// mixer's period (`Mixer.begin`, which takes a kernel of a new size if one
/// was handed over and says how many channels this period has), gathers the
/// buffers of that many ports and hands them to `Mixer.render`.
///
/// The ports are registered and unregistered by the supervisor
/// (`JackClient.fitPorts`), which publishes each in `inputPorts`,
/// `outputPorts` and `directPorts` (0: none). A channel without a port yet reads `silence` or
/// writes into `scratch`; a port is unregistered only once the audio thread
/// renders without its channel.
final class ProcessContext: @unchecked Sendable {
    let mixer: Mixer
    /// Our ports by channel, as `UInt(bitPattern:)` of the port; 0: none.
    let inputPorts: UnsafeMutablePointer<Atomic<UInt>>
    let outputPorts: UnsafeMutablePointer<Atomic<UInt>>
    /// Each source's direct out port (`direct_n`), likewise.
    let directPorts: UnsafeMutablePointer<Atomic<UInt>>
    /// Each output's delay in frames beyond the period (its limiter's
    /// lookahead), reported to JACK (`ProcessContext+Latency.swift`).
    let outputLatency: UnsafeMutablePointer<Atomic<Int>>
    let inputBuffers: UnsafeMutablePointer<UnsafePointer<Float>>
    /// Each source's direct out buffer this period; nil: no port.
    let directBuffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    /// How many talkbacks the rig has, each with its input port `talk_t`
    /// (0: none yet), and each one's buffer this period (nil: none).
    let talkbacks: Int
    /// Whether the rig has the listen's ports (`serve --listen`).
    let listen: Bool
    let talkPorts: UnsafeMutablePointer<Atomic<UInt>>
    let talkBuffers: UnsafeMutablePointer<UnsafePointer<Float>?>
    /// The listen's two output ports, `listen_1` and `listen_2` (0: none),
    /// and their buffers this period (nil: none).
    let listenPorts: UnsafeMutablePointer<Atomic<UInt>>
    let listenBuffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    let outputBuffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// The MIDI surfaces' rings, and their ports: `2s` surface s's input,
    /// `2s + 1` its output (0: none yet). `ProcessContext+MIDI.swift`.
    let surfaces: SurfaceWires?
    /// The same as the audio thread reads it: how many, and their rings
    /// (no reference counting on the audio thread).
    let surfaceCount: Int
    let incomingMIDI: UnsafeMutablePointer<MIDIRing>?
    let outgoingMIDI: UnsafeMutablePointer<MIDIRing>?
    let midiPorts: UnsafeMutablePointer<Atomic<UInt>>
    /// One event's bytes on their way from a ring to a port.
    let midiScratch: UnsafeMutablePointer<UInt8>
    /// Read by a channel without a port: never written.
    let silence: UnsafeMutablePointer<Float>
    /// Written by an output without a port (and never read as an input).
    let scratch: UnsafeMutablePointer<Float>
    let xruns = Atomic<Int>(0)
    let serverGone = Atomic<Bool>(false)
    let connectionsChanged = Atomic<Bool>(true)
    /// Set when any client registers or unregisters a port: the supervisor
    /// then looks at the patches and what feeds each source.
    let portsChanged = Atomic<Bool>(true)
    /// Set with `connectionsChanged`, for the supervisor's look at what feeds the sources.
    let feedsChanged = Atomic<Bool>(true)
    let sampleRate = Atomic<Int>(0)
    let bufferSize = Atomic<Int>(0)
    /// The client, for the frame time of each period (set before activation).
    nonisolated(unsafe) var client: OpaquePointer?
    /// The end of the span of JACK's microsecond clock the period processed
    /// last covered (`PeriodSpan.end`): every cue due before it is applied.
    let lastCycleEnd = Atomic<UInt64>(0)

    /// The longest period JACK may give.
    static let maxFrames = 8192

    init(mixer: Mixer, talkbacks: Int = 0, listen: Bool = false, surfaces: SurfaceWires? = nil) {
        self.mixer = mixer
        self.listen = listen
        self.surfaces = surfaces
        surfaceCount = surfaces?.count ?? 0
        incomingMIDI = surfaces?.incoming
        outgoingMIDI = surfaces?.outgoing
        let midiCount = 2 * surfaceCount
        midiPorts = .allocate(capacity: max(1, midiCount))
        for p in 0..<midiCount { (midiPorts + p).initialize(to: Atomic(0)) }
        midiScratch = .allocate(capacity: MIDIRing.longestEvent)
        midiScratch.initialize(repeating: 0, count: MIDIRing.longestEvent)
        self.talkbacks = min(max(0, talkbacks), Talkbacks.most)
        talkPorts = .allocate(capacity: Talkbacks.most)
        for t in 0..<Talkbacks.most { (talkPorts + t).initialize(to: Atomic(0)) }
        talkBuffers = .allocate(capacity: Talkbacks.most)
        talkBuffers.initialize(repeating: nil, count: Talkbacks.most)
        listenPorts = .allocate(capacity: 2)
        for side in 0..<2 { (listenPorts + side).initialize(to: Atomic(0)) }
        listenBuffers = .allocate(capacity: 2)
        listenBuffers.initialize(repeating: nil, count: 2)
        let channels = Mixer.channelLimit
        inputPorts = .allocate(capacity: channels)
        outputPorts = .allocate(capacity: channels)
        directPorts = .allocate(capacity: channels)
        outputLatency = .allocate(capacity: channels)
        for c in 0..<channels {
            (inputPorts + c).initialize(to: Atomic(0))
            (outputPorts + c).initialize(to: Atomic(0))
            (directPorts + c).initialize(to: Atomic(0))
            (outputLatency + c).initialize(to: Atomic(0))
        }
        directBuffers = .allocate(capacity: channels)
        directBuffers.initialize(repeating: nil, count: channels)
        silence = .allocate(capacity: Self.maxFrames)
        silence.initialize(repeating: 0, count: Self.maxFrames)
        scratch = .allocate(capacity: Self.maxFrames)
        scratch.initialize(repeating: 0, count: Self.maxFrames)
        inputBuffers = .allocate(capacity: channels)
        inputBuffers.initialize(repeating: UnsafePointer(silence), count: channels)
        outputBuffers = .allocate(capacity: channels)
        outputBuffers.initialize(repeating: scratch, count: channels)
    }

    deinit {
        midiPorts.deinitialize(count: 2 * surfaceCount)
        midiPorts.deallocate()
        midiScratch.deallocate()
        talkPorts.deinitialize(count: Talkbacks.most)
        talkPorts.deallocate()
        talkBuffers.deallocate()
        listenPorts.deinitialize(count: 2)
        listenPorts.deallocate()
        listenBuffers.deallocate()
        inputPorts.deinitialize(count: Mixer.channelLimit)
        outputPorts.deinitialize(count: Mixer.channelLimit)
        directPorts.deinitialize(count: Mixer.channelLimit)
        outputLatency.deinitialize(count: Mixer.channelLimit)
        outputLatency.deallocate()
        inputPorts.deallocate()
        outputPorts.deallocate()
        directPorts.deallocate()
        directBuffers.deallocate()
        inputBuffers.deallocate()
        outputBuffers.deallocate()
        silence.deallocate()
        scratch.deallocate()
    }

    // MARK: - JACK callbacks (C function pointers, on JACK's threads)

    static let process: JackProcessCallback = { frames, context in
        guard let context else { return 0 }
        Unmanaged<ProcessContext>.fromOpaque(context)._withUnsafeGuaranteedRef { c in
            let count = Int(frames)
            // The frame time of this period's first sample, and the span of
            // JACK's microsecond clock it covers (this wakeup's time up to the
            // next's): a cue due in it lands at its frame (`PeriodSpan`).
            var frameTime: UInt32 = 0
            var start: jack_time_t = 0, next: jack_time_t = 0
            var periodMicroseconds: Float = 0
            if let client = c.client,
               jack_get_cycle_times(client, &frameTime, &start, &next, &periodMicroseconds) != 0 || next <= start {
                frameTime = jack_last_frame_time(client)
                start = jack_frames_to_time(client, frameTime)
                next = jack_frames_to_time(client, frameTime &+ frames)
            }
            // The period's size: a kernel of a new size, if one was handed over, from here on.
            let size = c.mixer.begin(frames: count, frameTime: frameTime, span: PeriodSpan(start: start, end: next))
            // Plain `if let`, no `Optional.map` or `??`: in an unoptimised
            // build those instantiate generic metadata on the first call,
            // which allocates and locks (the allocation test caught it).
            for n in 0..<size.inputs {
                if let port = OpaquePointer(bitPattern: c.inputPorts[n].load(ordering: .acquiring)),
                   let buffer = jack_port_get_buffer(port, frames) {
                    c.inputBuffers[n] = UnsafePointer(buffer.assumingMemoryBound(to: Float.self))
                } else {
                    c.inputBuffers[n] = UnsafePointer(c.silence)
                }
            }
            for m in 0..<size.outputs {
                if let port = OpaquePointer(bitPattern: c.outputPorts[m].load(ordering: .acquiring)),
                   let buffer = jack_port_get_buffer(port, frames) {
                    c.outputBuffers[m] = buffer.assumingMemoryBound(to: Float.self)
                } else {
                    c.outputBuffers[m] = c.scratch
                }
            }
            // Direct outs: only the sources with a port.
            var directs = false
            for n in 0..<size.inputs {
                if let port = OpaquePointer(bitPattern: c.directPorts[n].load(ordering: .acquiring)),
                   let buffer = jack_port_get_buffer(port, frames) {
                    c.directBuffers[n] = buffer.assumingMemoryBound(to: Float.self)
                    directs = true
                } else {
                    c.directBuffers[n] = nil
                }
            }
            // The talkbacks' inputs: their own ports, never sources of the matrix.
            for t in 0..<c.talkbacks {
                if let port = OpaquePointer(bitPattern: c.talkPorts[t].load(ordering: .acquiring)),
                   let buffer = jack_port_get_buffer(port, frames) {
                    c.talkBuffers[t] = UnsafePointer(buffer.assumingMemoryBound(to: Float.self))
                } else {
                    c.talkBuffers[t] = nil
                }
            }
            // The listen's pair: its own ports, when the rig has them.
            for side in 0..<2 {
                if let port = OpaquePointer(bitPattern: c.listenPorts[side].load(ordering: .acquiring)),
                   let buffer = jack_port_get_buffer(port, frames) {
                    c.listenBuffers[side] = buffer.assumingMemoryBound(to: Float.self)
                } else {
                    c.listenBuffers[side] = nil
                }
            }
            if directs {
                c.mixer.render(inputs: c.inputBuffers, outputs: c.outputBuffers, directs: c.directBuffers,
                               talks: c.talkBuffers, talkCount: c.talkbacks, listen: c.listenBuffers, frames: count)
            } else {
                c.mixer.render(inputs: c.inputBuffers, outputs: c.outputBuffers, directs: nil,
                               talks: c.talkBuffers, talkCount: c.talkbacks, listen: c.listenBuffers, frames: count)
            }
            if c.surfaceCount > 0 { c.exchangeMIDI(frames: frames) }
            c.lastCycleEnd.store(next, ordering: .releasing)
        }
        return 0
    }

    static let xrun: JackXRunCallback = { context in
        guard let context else { return 0 }
        Unmanaged<ProcessContext>.fromOpaque(context)._withUnsafeGuaranteedRef { _ = $0.xruns.add(1, ordering: .relaxed) }
        return 0
    }

    /// On JACK2's failure path this runs on the process thread: it only
    /// stores an atomic. The supervisor detaches the mixer and reconnects.
    static let shutdown: JackShutdownCallback = { context in
        guard let context else { return }
        Unmanaged<ProcessContext>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.noteServerGone() }
    }

    @_noLocks
    func noteServerGone() { serverGone.store(true, ordering: .sequentiallyConsistent) }

    static let sampleRateChanged: JackSampleRateCallback = { rate, context in
        guard let context else { return 0 }
        Unmanaged<ProcessContext>.fromOpaque(context)._withUnsafeGuaranteedRef { c in
            c.sampleRate.store(Int(rate), ordering: .relaxed)
            c.mixer.setSampleRate(Int(rate))
        }
        return 0
    }

    static let bufferSizeChanged: JackBufferSizeCallback = { frames, context in
        guard let context else { return 0 }
        Unmanaged<ProcessContext>.fromOpaque(context)._withUnsafeGuaranteedRef {
            $0.bufferSize.store(Int(frames), ordering: .relaxed)
        }
        return 0
    }

    static let portConnected: JackPortConnectCallback = { _, _, _, context in
        guard let context else { return }
        Unmanaged<ProcessContext>.fromOpaque(context)._withUnsafeGuaranteedRef {
            $0.connectionsChanged.store(true, ordering: .relaxed)
            $0.feedsChanged.store(true, ordering: .relaxed)
        }
    }

    static let portRegistered: JackPortRegistrationCallback = { _, _, context in
        guard let context else { return }
        Unmanaged<ProcessContext>.fromOpaque(context)._withUnsafeGuaranteedRef {
            $0.portsChanged.store(true, ordering: .relaxed)
        }
    }
}
