import CJack
import MixCore
import Synchronization

/// What the JACK process callback needs, allocated once per client: the
/// mixer, our ports, and room for the buffer pointers of each period.
///
/// `process` is the trampoline: the only code on the audio thread that is not
/// `@_noLocks`, because it calls C (`jack_port_get_buffer`). It gathers the
/// period's buffers and hands them to `Mixer.process`, which is checked.
final class ProcessContext: @unchecked Sendable {
    let mixer: Mixer
    let inputPorts: UnsafeMutablePointer<OpaquePointer?>
    let outputPorts: UnsafeMutablePointer<OpaquePointer?>
    let inputBuffers: UnsafeMutablePointer<UnsafePointer<Float>>
    let outputBuffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// Stands in for a port whose buffer JACK did not give (never expected).
    let spare: UnsafeMutablePointer<Float>
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
    /// JACK's frame time at the start of the period last processed.
    let lastFrameTime = Atomic<UInt32>(0)

    init(mixer: Mixer) {
        self.mixer = mixer
        inputPorts = .allocate(capacity: mixer.inputs)
        inputPorts.initialize(repeating: nil, count: mixer.inputs)
        outputPorts = .allocate(capacity: mixer.outputs)
        outputPorts.initialize(repeating: nil, count: mixer.outputs)
        spare = .allocate(capacity: 8192)
        spare.initialize(repeating: 0, count: 8192)
        inputBuffers = .allocate(capacity: mixer.inputs)
        inputBuffers.initialize(repeating: UnsafePointer(spare), count: mixer.inputs)
        outputBuffers = .allocate(capacity: mixer.outputs)
        outputBuffers.initialize(repeating: spare, count: mixer.outputs)
    }

    deinit {
        inputPorts.deallocate()
        outputPorts.deallocate()
        inputBuffers.deallocate()
        outputBuffers.deallocate()
        spare.deallocate()
    }

    // MARK: - JACK callbacks (C function pointers, on JACK's threads)

    static let process: JackProcessCallback = { frames, context in
        guard let context else { return 0 }
        Unmanaged<ProcessContext>.fromOpaque(context)._withUnsafeGuaranteedRef { c in
            let count = Int(frames)
            // Plain `if let`, no `Optional.map` or `??`: in an unoptimised
            // build those instantiate generic metadata on the first call,
            // which allocates and locks (the allocation test caught it).
            for n in 0..<c.mixer.inputs {
                if let buffer = jack_port_get_buffer(c.inputPorts[n], frames) {
                    c.inputBuffers[n] = UnsafePointer(buffer.assumingMemoryBound(to: Float.self))
                } else {
                    c.inputBuffers[n] = UnsafePointer(c.spare)
                }
            }
            for m in 0..<c.mixer.outputs {
                if let buffer = jack_port_get_buffer(c.outputPorts[m], frames) {
                    c.outputBuffers[m] = buffer.assumingMemoryBound(to: Float.self)
                } else {
                    c.outputBuffers[m] = c.spare
                }
            }
            // The frame time of this period's first sample: timed changes apply at their frame.
            var frameTime: UInt32 = 0
            if let client = c.client { frameTime = jack_last_frame_time(client) }
            c.mixer.process(inputs: c.inputBuffers, outputs: c.outputBuffers, frames: count, frameTime: frameTime)
            c.lastFrameTime.store(frameTime, ordering: .releasing)
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
