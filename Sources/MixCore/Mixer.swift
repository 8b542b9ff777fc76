import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The mixing engine: the render kernel and the staging that feeds it.
///
/// Two sides, two threads. The control side submits changes as batches
/// (`submit`), now or for a time; the audio thread calls `process` once per
/// period (`Mixer+AudioThread.swift`). A batch of any size is handed over
/// through one pointer and takes effect in one period; a timed batch is
/// handed over ahead of its time, stamped with its JACK frame, and applied
/// at that frame inside its period. Spent batches come back through the
/// outbox and are freed here, on the control side: the audio thread never
/// allocates, frees, locks or waits, and the control side never waits for it.
///
/// While no audio thread is attached (before JACK starts, while the server
/// is away, in offline tests) the control side may act in its place.
public final class Mixer: @unchecked Sendable {
    /// The most inputs, and the most outputs, a rig may have.
    public static let channelLimit = 512
    /// The build of the mixing loops this mixer's kernels run (`SIMDPath`).
    public let simd: SIMDPath
    /// Where the kernel keeps each ramp: a change names its ramp by slot.
    /// The control side's: the layout of the last `reshape`.
    public var rampLayout: RampLayout { producer.withLock { _ in ramps } }
    /// Inputs and outputs as the control side last set them (`reshape`);
    /// read without a lock, so that JACK's side may ask under its own.
    public var inputs: Int { stagedInputs.load(ordering: .acquiring) }
    public var outputs: Int { stagedOutputs.load(ordering: .acquiring) }
    let stagedInputs: Atomic<Int>
    let stagedOutputs: Atomic<Int>
    /// Which outputs form stereo pairs (for pans, and for mirroring a linked pair's crosspoints).
    public var layout: OutputLayout { producer.withLock { _ in outputLayout } }
    /// What the audio thread renders with: one pointer, so the audio thread
    /// reads and swaps it without retaining anything.
    @usableFromInline let rendering: UnsafeMutablePointer<Rendering>
    /// Control side to audio thread: batches to apply.
    @usableFromInline let inbox: BatchRing
    /// Audio thread to control side: spent batches, to free.
    @usableFromInline let outbox: BatchRing
    /// Timed batches waiting for their time; the audio thread's.
    @usableFromInline let cues: UnsafeMutablePointer<CueList>
    /// Buffer pointers offset into the period, for rendering part of it.
    @usableFromInline let segmentInputs: UnsafeMutablePointer<UnsafePointer<Float>>
    @usableFromInline let segmentOutputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    @usableFromInline let segmentDirects: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    /// Samples per second, for turning fade times into samples.
    @usableFromInline let sampleRate = Atomic<Int>(48_000)
    /// Periods rendered since start.
    @usableFromInline let periods = Atomic<Int>(0)
    /// Changes submitted and not yet applied.
    @usableFromInline let queued = Atomic<Int>(0)
    /// Frames rendered, the frame clock of callers that bring none (offline).
    @usableFromInline let ownFrameTime = Atomic<UInt32>(0)
    /// How many frames the last change of size waited for the audio thread
    /// beyond the period under way when it was handed over: 0 when the next
    /// period rendered at the new size, one period's frames when it waited
    /// one more (nil: none yet, or none while an audio thread ran). Read
    /// without a lock: the frame is the audio thread's own count.
    public var lastResizeFrames: Int? {
        let frames = swapDelay.load(ordering: .relaxed)
        return frames < 0 ? nil : frames
    }

    /// The inputs and outputs of the kernel the audio thread renders with
    /// (published at each swap): ports past these are no longer read.
    @usableFromInline let renderedInputs: Atomic<Int>
    @usableFromInline let renderedOutputs: Atomic<Int>
    /// Frames from the last `reshape` to the start of the period that took
    /// its kernel; −1: none measured yet.
    @usableFromInline let swapDelay = Atomic<Int>(-1)
    /// True while an audio thread is calling `process`.
    let attached = Atomic<Bool>(false)
    /// Held while the control side acts as the audio thread (applies
    /// batches, takes cues back), and while attaching: so that it never does
    /// so once an audio thread may run. (The audio thread never takes it.)
    let consumer = Mutex<Void>(())
    /// Input and output levels, for meters.
    public let meters: MeterBank
    /// How the kernels are made: the pan law, the longest period, the delay lines' length.
    let panLaw: PanLaw
    let maxFrames: Int
    let longestDelay: Double

    // Control side, guarded by `producer`.
    let producer = Mutex<Void>(())
    /// The layout changes are staged for, the outputs' stereo pairs, and
    /// how many layouts came before (`reshape`).
    var ramps: RampLayout
    var outputLayout: OutputLayout
    var generation = 0
    /// Batches to apply now that did not fit in the inbox, oldest first.
    var backlog: [ChangeBatch.Pointer] = []
    /// Timed batches not yet handed to the audio thread, by due time.
    var waiting: [ChangeBatch.Pointer] = []
    /// Batches in the inbox, the cue list or the outbox: at most the rings'
    /// capacity, so the audio thread always has room to hand one back.
    var inFlight = 0
    /// Timed batches handed over and not yet back: at most the cue list's capacity.
    var cuesInFlight = 0
    var clock: (any CueClock)?
    private let serviceStopping = Atomic<Bool>(false)
    /// The service thread rests while nothing is in flight (`runService`):
    /// a submission, a reshape, a detach or `stopService` wakes it.
    private let serviceResting = Atomic<Bool>(false)
    private let serviceWake = DispatchSemaphore(value: 0)

    /// The audio thread's own: the kernel, the generation of its layout,
    /// the first frame of the period under way and its span of the cue clock.
    @usableFromInline
    struct Rendering {
        @usableFromInline var kernel: UnsafeMutablePointer<RenderKernel>
        @usableFromInline var generation = 0
        @usableFromInline var periodStart: UInt32 = 0
        @usableFromInline var span = PeriodSpan(start: 0, end: 1)
        @usableFromInline init(kernel: UnsafeMutablePointer<RenderKernel>) { self.kernel = kernel }
    }

    /// The kernel rendering now.
    @inlinable var kernel: UnsafeMutablePointer<RenderKernel> { rendering.pointee.kernel }

    /// Timed batches are handed to the audio thread this long before they
    /// are due (or at once when nearer): in its hands hundreds of periods
    /// ahead, so a late control thread cannot make one late.
    public static let handOverHorizon: Double = 1.0
    /// Timed batches the audio thread holds at once.
    public static let cueCapacity = 1024

    /// A mixer for the ramps `ramps` lays out (the parameter catalogue's),
    /// starting settled at the values `initial` gives. `queueCapacity`:
    /// batches in flight between the two sides at once; more wait on the
    /// control side. `longestDelay`: the outputs' delay lines, in seconds.
    /// `simd`: the build of the mixing loops its kernels run (`SIMDPath`).
    public init(ramps: RampLayout, initial: [Change], panLaw: PanLaw, layout: OutputLayout,
                queueCapacity: Int = 8192, maxFrames: Int = 8192, longestDelay: Double = 0, simd: SIMDPath = .inUse) {
        precondition(ramps.inputs <= Self.channelLimit && ramps.outputs <= Self.channelLimit)
        self.simd = simd
        self.ramps = ramps
        outputLayout = layout
        self.panLaw = panLaw
        self.maxFrames = maxFrames
        self.longestDelay = longestDelay
        inbox = BatchRing(capacity: queueCapacity)
        outbox = BatchRing(capacity: queueCapacity)
        cues = .allocate(capacity: 1)
        cues.initialize(to: CueList(capacity: Self.cueCapacity))
        segmentInputs = .allocate(capacity: Self.channelLimit)
        segmentOutputs = .allocate(capacity: Self.channelLimit)
        segmentDirects = .allocate(capacity: Self.channelLimit)
        segmentDirects.initialize(repeating: nil, count: Self.channelLimit)
        meters = MeterBank(capacity: Self.channelLimit)
        stagedInputs = Atomic(ramps.inputs)
        stagedOutputs = Atomic(ramps.outputs)
        renderedInputs = Atomic(ramps.inputs)
        renderedOutputs = Atomic(ramps.outputs)
        // The first kernel holds a delay line for every output the rig may
        // ever have; later kernels take them over.
        let kernel = UnsafeMutablePointer<RenderKernel>.allocate(capacity: 1)
        kernel.initialize(to: RenderKernel(ramps: ramps, initial: initial, maxFrames: maxFrames, panLaw: panLaw,
                                           layout: layout, longestDelay: longestDelay, delayLines: Self.channelLimit, simd: simd))
        rendering = .allocate(capacity: 1)
        rendering.initialize(to: Rendering(kernel: kernel))
    }

    deinit {
        while let batch = inbox.pop() { ChangeBatch.free(batch) }
        while let batch = outbox.pop() { ChangeBatch.free(batch) }
        while let batch = cues.pointee.removeFirst() { ChangeBatch.free(batch) }
        (backlog + waiting).forEach(ChangeBatch.free)
        cues.deinitialize(count: 1)
        cues.deallocate()
        segmentInputs.deallocate()
        segmentOutputs.deallocate()
        segmentDirects.deallocate()
        rendering.pointee.kernel.deinitialize(count: 1)
        rendering.pointee.kernel.deallocate()
        rendering.deinitialize(count: 1)
        rendering.deallocate()
    }

    // MARK: - Control side

    public var periodsRendered: Int { periods.load(ordering: .relaxed) }

    /// Changes submitted but not yet applied (timed ones included).
    public var queuedChanges: Int { queued.load(ordering: .relaxed) }

    /// Timed batches waiting on the control side, and held by the audio thread.
    public var timedBatches: (waiting: Int, handedOver: Int) {
        producer.withLock { _ in (waiting.count, cuesInFlight) }
    }

    public func setSampleRate(_ rate: Int) { sampleRate.store(max(1, rate), ordering: .relaxed) }

    /// The clock timed batches are scheduled on; set before any is submitted.
    public func use(clock: any CueClock) { producer.withLock { _ in self.clock = clock } }

    /// The audio thread starts (true) or has stopped (false) calling `process`.
    public func setAttached(_ isAttached: Bool) {
        consumer.withLock { _ in attached.store(isAttached, ordering: .sequentiallyConsistent) }
        if !isAttached { wakeService() } // the control side stands in from now on
    }

    /// Hands changes to the audio thread as one batch: they take effect
    /// together, at the start of the next period. Never waits.
    public func submit(_ changes: [Change]) {
        guard !changes.isEmpty else { return }
        producer.withLock { _ in
            reclaim()
            queued.add(changes.count, ordering: .relaxed)
            backlog.append(ChangeBatch.make(changes, due: nil, submitted: Self.unixTime(), layout: ramps, generation: generation))
            flushBacklog()
        }
        wakeService()
    }

    /// Hands changes to the audio thread as one batch that takes effect at
    /// a Unix time (`due`): at once if the batch is within `handOverHorizon`,
    /// else later from `service()`. The time is mapped to the cue clock
    /// (JACK's microseconds) when the batch is handed over, and to a frame
    /// by the audio thread in the period it falls due. Never waits.
    public func submit(_ changes: [Change], due: Double) {
        guard !changes.isEmpty else { return }
        producer.withLock { _ in
            reclaim()
            queued.add(changes.count, ordering: .relaxed)
            let batch = ChangeBatch.make(changes, due: due, submitted: due, layout: ramps, generation: generation)
            // After every batch due at the same time or earlier: equal times keep their order.
            var low = 0, high = waiting.count
            while low < high {
                let middle = (low + high) / 2
                if waiting[middle].pointee.time <= due { low = middle + 1 } else { high = middle }
            }
            waiting.insert(batch, at: low)
            handOver(now: Self.unixTime())
        }
        wakeService()
    }

    /// The control side's periodic work, every few milliseconds from a
    /// thread of its own: frees spent batches, hands over batches that did
    /// not fit and timed batches coming within the horizon; while no audio
    /// thread is attached, takes the audio thread's place (timed batches
    /// then apply at their time by the wall clock, and are remapped to
    /// frames when JACK is back).
    public func service() {
        producer.withLock { _ in
            reclaim()
            flushBacklog()
            let now = Self.unixTime()
            handOver(now: now)
            consumer.withLock { _ in
                guard !attached.load(ordering: .sequentiallyConsistent) else { return }
                standIn(now: now)
            }
        }
    }

    /// Runs `service()` every 5 ms until `stopService()`: far inside the
    /// hand-over horizon, and a backlog waits at most that long for room.
    /// While an audio thread is attached and nothing is in flight, waiting
    /// or backlogged, it rests until something is submitted (at most
    /// 100 ms): an idle rig does not wake 200 times a second for nothing.
    /// Call on its own thread.
    public func runService() {
        while !serviceStopping.load(ordering: .relaxed) {
            service()
            if mayRest() {
                _ = serviceWake.wait(timeout: .now() + .milliseconds(100))
                serviceResting.store(false, ordering: .sequentiallyConsistent)
            } else {
                usleep(5_000)
            }
        }
    }

    /// Whether the service has nothing to do until something is submitted;
    /// marked resting under the producer lock, so that a submission after
    /// the look wakes it (`wakeService`).
    private func mayRest() -> Bool {
        producer.withLock { _ in
            let idle = attached.load(ordering: .sequentiallyConsistent) && inFlight == 0 && backlog.isEmpty
                && waiting.isEmpty
            serviceResting.store(idle, ordering: .sequentiallyConsistent)
            return idle
        }
    }

    /// Wakes the service thread if it rests.
    func wakeService() {
        if serviceResting.exchange(false, ordering: .sequentiallyConsistent) { serviceWake.signal() }
    }

    public func stopService() {
        serviceStopping.store(true, ordering: .relaxed)
        serviceWake.signal()
    }

    /// Applies every change submitted for now, on the calling thread. Only
    /// for use while no audio thread is attached (offline tests, bench).
    public func drainQueue() {
        producer.withLock { _ in
            consumer.withLock { _ in standIn(now: Self.unixTime()) }
        }
    }

    /// The audio-side state, for offline tests. Read it only while no audio
    /// thread is attached.
    public var offlineKernel: UnsafePointer<RenderKernel> { UnsafePointer(kernel) }

    /// The inputs and outputs of the kernel the audio thread renders with
    /// (until a swap is taken, the size before the last `reshape`).
    public var renderedShape: (inputs: Int, outputs: Int) {
        (renderedInputs.load(ordering: .acquiring), renderedOutputs.load(ordering: .acquiring))
    }

    // MARK: Staging (under `producer`)

    /// Frees what the audio thread handed back.
    func reclaim() {
        while let batch = outbox.pop() {
            inFlight -= 1
            if batch.pointee.isTimed { cuesInFlight -= 1 }
            ChangeBatch.free(batch)
        }
    }

    /// Moves batches for now into the inbox, oldest first, as far as it has
    /// room. While no audio thread runs, a full inbox is applied here.
    func flushBacklog() {
        var moved = 0
        while moved < backlog.count, inFlight < inbox.capacity, inbox.push(backlog[moved]) {
            inFlight += 1
            moved += 1
        }
        backlog.removeFirst(moved)
        if !backlog.isEmpty {
            consumer.withLock { _ in
                guard !attached.load(ordering: .sequentiallyConsistent) else { return }
                standIn(now: Self.unixTime())
            }
        }
        compactBacklog()
    }

    /// While the audio thread is stalled the backlog keeps only the last
    /// change of each parameter once it holds more than four scenes' worth:
    /// the final state is the same, and memory stays bounded. Only batches
    /// after the last kernel swap waiting there are merged (those before it
    /// are staged for another layout).
    private func compactBacklog() {
        let first = (backlog.lastIndex { $0.pointee.isSwap } ?? -1) + 1
        let tail = backlog[first...]
        let total = tail.reduce(0) { $0 + $1.pointee.count }
        guard total > 4 * ramps.slots else { return }
        var latest: [Int32: Change] = [:] // by slot
        var order: [Int32] = []
        for batch in tail {
            for change in batch.pointee.staged {
                if latest.updateValue(change, forKey: change.ramp) == nil { order.append(change.ramp) }
            }
            ChangeBatch.free(batch)
        }
        let merged = order.compactMap { latest[$0] }
        queued.subtract(total - merged.count, ordering: .relaxed)
        let submitted = tail.last?.pointee.time ?? Self.unixTime()
        backlog.removeSubrange(first...)
        backlog.append(ChangeBatch.make(staged: merged, due: nil, submitted: submitted, generation: generation))
    }

    /// Hands timed batches due within the horizon to the audio thread,
    /// stamped with their time on the cue clock, earliest first, while there is room.
    func handOver(now: Double) {
        // A swap still waiting in the backlog goes first: the timed batches
        // are staged for the layout it brings.
        guard !backlog.contains(where: { $0.pointee.isSwap }) else { return }
        while let first = waiting.first, first.pointee.time - now <= Self.handOverHorizon,
              cuesInFlight < Self.cueCapacity, inFlight < inbox.capacity,
              attached.load(ordering: .sequentiallyConsistent),
              let due = clock?.cueTime(atUnixTime: first.pointee.time) {
            first.pointee.due = due
            guard inbox.push(first) else { break }
            waiting.removeFirst()
            inFlight += 1
            cuesInFlight += 1
        }
    }

    static func unixTime() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
