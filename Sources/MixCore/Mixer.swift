import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The mixing engine: the render kernel and the queue that feeds it.
///
/// Two sides, two threads. The control side calls `submit`; the audio thread
/// calls `process` once per period, which applies every queued change and
/// renders. While no audio thread is attached (before JACK starts, while the
/// server is away, in offline tests) the control side may apply queued
/// changes itself, so a full queue never loses a change.
public final class Mixer: @unchecked Sendable {
    public let inputs: Int
    public let outputs: Int
    public let parameters: ParameterIndex
    @usableFromInline let queue: ChangeQueue
    @usableFromInline let kernel: UnsafeMutablePointer<RenderKernel>
    /// Samples per second, for turning fade times into samples.
    @usableFromInline let sampleRate = Atomic<Int>(48_000)
    /// Periods rendered since start.
    @usableFromInline let periods = Atomic<Int>(0)
    /// True while an audio thread is calling `process`.
    let attached = Atomic<Bool>(false)
    /// Held by the control side while it applies queued changes itself, and
    /// while attaching: so that it never does so once an audio thread may run.
    /// (The audio thread never takes it.)
    private let consumer = Mutex<Void>(())
    /// Input and output levels, for meters.
    public let meters: MeterBank

    public init(scene: Scene, panLaw: PanLaw, layout: OutputLayout,
                queueCapacity: Int = 16_384, maxFrames: Int = 8192) {
        inputs = scene.inputCount
        outputs = scene.outputCount
        parameters = ParameterIndex(inputs: inputs, outputs: outputs)
        queue = ChangeQueue(capacity: queueCapacity)
        meters = MeterBank(inputs: inputs, outputs: outputs)
        kernel = .allocate(capacity: 1)
        kernel.initialize(to: RenderKernel(inputs: inputs, outputs: outputs, maxFrames: maxFrames,
                                           panLaw: panLaw, layout: layout, scene: scene))
    }

    deinit {
        kernel.deinitialize(count: 1)
        kernel.deallocate()
    }

    // MARK: - Control side

    public var periodsRendered: Int { periods.load(ordering: .relaxed) }

    /// Changes submitted but not yet taken by the audio thread.
    public var queuedChanges: Int { queue.capacity - queue.freeSlots }

    public func setSampleRate(_ rate: Int) { sampleRate.store(max(1, rate), ordering: .relaxed) }

    /// The audio thread starts (true) or has stopped (false) calling `process`.
    public func setAttached(_ isAttached: Bool) {
        consumer.withLock { _ in attached.store(isAttached, ordering: .sequentiallyConsistent) }
    }

    /// Hands changes to the audio thread. Changes submitted together take
    /// effect in the same period when they fit in the queue at once (16,384
    /// by default). When the queue is full this waits for the audio thread to
    /// drain it; nothing is ever dropped, so the final state is always the
    /// last one submitted.
    public func submit(_ changes: [Change]) {
        var rest = changes[...]
        while !rest.isEmpty {
            let written = queue.write(rest)
            rest = rest.dropFirst(written)
            if rest.isEmpty { break }
            let drained = consumer.withLock { _ -> Bool in
                guard !attached.load(ordering: .sequentiallyConsistent) else { return false }
                applyQueued()
                return true
            }
            if !drained { usleep(200) } // a fraction of a period
        }
    }

    /// Applies queued changes now, on the calling thread. Only for use while
    /// no audio thread is attached.
    public func drainQueue() {
        consumer.withLock { _ in applyQueued() }
    }

    private func applyQueued() {
        let ready = queue.readable()
        let rate = sampleRate.load(ordering: .relaxed)
        for i in ready { kernel.pointee.apply(queue.slot(i), sampleRate: rate) }
        queue.release(upTo: ready.upperBound)
    }

    /// The audio-side state, for offline tests. Read it only while no audio
    /// thread is attached.
    public var offlineKernel: UnsafePointer<RenderKernel> { UnsafePointer(kernel) }

    // MARK: - Audio thread

    /// One period: applies every change queued so far, then mixes.
    ///
    /// Not inlinable on purpose: callers in other modules always call this
    /// module's copy, compiled optimised for the kernel's CPU target.
    @_noLocks
    public func process(inputs input: UnsafePointer<UnsafePointer<Float>>,
                        outputs output: UnsafePointer<UnsafeMutablePointer<Float>>,
                        frames: Int) {
        let ready = queue.readable()
        let rate = sampleRate.load(ordering: .relaxed)
        for i in ready { kernel.pointee.apply(queue.slot(i), sampleRate: rate) }
        queue.release(upTo: ready.upperBound)
        kernel.pointee.render(inputs: input, outputs: output, frames: frames)
        meters.measure(input, output, frames: frames)
        periods.add(1, ordering: .relaxed)
    }
}
