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
    public let inputs: Int
    public let outputs: Int
    /// Where the kernel keeps each ramp: a change names its ramp by slot.
    public let rampLayout: RampLayout
    @usableFromInline let kernel: UnsafeMutablePointer<RenderKernel>
    /// Control side to audio thread: batches to apply.
    @usableFromInline let inbox: BatchRing
    /// Audio thread to control side: spent batches, to free.
    @usableFromInline let outbox: BatchRing
    /// Timed batches waiting for their frame; the audio thread's.
    @usableFromInline let cues: UnsafeMutablePointer<CueList>
    /// Buffer pointers offset into the period, for rendering part of it.
    @usableFromInline let segmentInputs: UnsafeMutablePointer<UnsafePointer<Float>>
    @usableFromInline let segmentOutputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// Samples per second, for turning fade times into samples.
    @usableFromInline let sampleRate = Atomic<Int>(48_000)
    /// Periods rendered since start.
    @usableFromInline let periods = Atomic<Int>(0)
    /// Changes submitted and not yet applied.
    @usableFromInline let queued = Atomic<Int>(0)
    /// Frames rendered, the frame clock of callers that bring none (offline).
    @usableFromInline let ownFrameTime = Atomic<UInt32>(0)
    /// True while an audio thread is calling `process`.
    let attached = Atomic<Bool>(false)
    /// Held while the control side acts as the audio thread (applies
    /// batches, takes cues back), and while attaching: so that it never does
    /// so once an audio thread may run. (The audio thread never takes it.)
    private let consumer = Mutex<Void>(())
    /// Input and output levels, for meters.
    /// Which outputs form stereo pairs (for pans, and for mirroring a linked pair's crosspoints).
    public let layout: OutputLayout
    public let meters: MeterBank

    // Control side, guarded by `producer`.
    private let producer = Mutex<Void>(())
    /// Batches to apply now that did not fit in the inbox, oldest first.
    private var backlog: [ChangeBatch.Pointer] = []
    /// Timed batches not yet handed to the audio thread, by due time.
    private var waiting: [ChangeBatch.Pointer] = []
    /// Batches in the inbox, the cue list or the outbox: at most the rings'
    /// capacity, so the audio thread always has room to hand one back.
    private var inFlight = 0
    /// Timed batches handed over and not yet back: at most the cue list's capacity.
    private var cuesInFlight = 0
    private var clock: (any FrameClock)?
    private let serviceStopping = Atomic<Bool>(false)

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
    public init(ramps: RampLayout, initial: [Change], panLaw: PanLaw, layout: OutputLayout,
                queueCapacity: Int = 8192, maxFrames: Int = 8192, longestDelay: Double = 0) {
        inputs = ramps.inputs
        outputs = ramps.outputs
        rampLayout = ramps
        self.layout = layout
        inbox = BatchRing(capacity: queueCapacity)
        outbox = BatchRing(capacity: queueCapacity)
        cues = .allocate(capacity: 1)
        cues.initialize(to: CueList(capacity: Self.cueCapacity))
        segmentInputs = .allocate(capacity: max(1, inputs))
        segmentOutputs = .allocate(capacity: max(1, outputs))
        meters = MeterBank(inputs: inputs, outputs: outputs)
        kernel = .allocate(capacity: 1)
        kernel.initialize(to: RenderKernel(ramps: ramps, initial: initial, maxFrames: maxFrames,
                                           panLaw: panLaw, layout: layout, longestDelay: longestDelay))
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
        kernel.deinitialize(count: 1)
        kernel.deallocate()
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
    public func use(clock: any FrameClock) { producer.withLock { _ in self.clock = clock } }

    /// The audio thread starts (true) or has stopped (false) calling `process`.
    public func setAttached(_ isAttached: Bool) {
        consumer.withLock { _ in attached.store(isAttached, ordering: .sequentiallyConsistent) }
    }

    /// Hands changes to the audio thread as one batch: they take effect
    /// together, at the start of the next period. Never waits.
    public func submit(_ changes: [Change]) {
        guard !changes.isEmpty else { return }
        producer.withLock { _ in
            reclaim()
            queued.add(changes.count, ordering: .relaxed)
            backlog.append(ChangeBatch.make(changes, due: nil, submitted: Self.unixTime(), layout: rampLayout))
            flushBacklog()
        }
    }

    /// Hands changes to the audio thread as one batch that takes effect at
    /// the JACK frame of a Unix time (`due`): at once if the batch is within
    /// `handOverHorizon`, else later from `service()`. The time is mapped to
    /// a frame when the batch is handed over. Never waits.
    public func submit(_ changes: [Change], due: Double) {
        guard !changes.isEmpty else { return }
        producer.withLock { _ in
            reclaim()
            queued.add(changes.count, ordering: .relaxed)
            let batch = ChangeBatch.make(changes, due: due, submitted: due, layout: rampLayout)
            // After every batch due at the same time or earlier: equal times keep their order.
            var low = 0, high = waiting.count
            while low < high {
                let middle = (low + high) / 2
                if waiting[middle].pointee.time <= due { low = middle + 1 } else { high = middle }
            }
            waiting.insert(batch, at: low)
            handOver(now: Self.unixTime())
        }
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
    /// Call on its own thread.
    public func runService() {
        while !serviceStopping.load(ordering: .relaxed) {
            service()
            usleep(5_000)
        }
    }

    public func stopService() { serviceStopping.store(true, ordering: .relaxed) }

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

    // MARK: Staging (under `producer`)

    /// Frees what the audio thread handed back.
    private func reclaim() {
        while let batch = outbox.pop() {
            inFlight -= 1
            if batch.pointee.isTimed { cuesInFlight -= 1 }
            ChangeBatch.free(batch)
        }
    }

    /// Moves batches for now into the inbox, oldest first, as far as it has
    /// room. While no audio thread runs, a full inbox is applied here.
    private func flushBacklog() {
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
    /// the final state is the same, and memory stays bounded.
    private func compactBacklog() {
        let total = backlog.reduce(0) { $0 + $1.pointee.count }
        guard total > 4 * rampLayout.slots else { return }
        var latest: [Int32: Change] = [:] // by slot
        var order: [Int32] = []
        for batch in backlog {
            for change in batch.pointee.staged {
                if latest.updateValue(change, forKey: change.ramp) == nil { order.append(change.ramp) }
            }
            ChangeBatch.free(batch)
        }
        let merged = order.compactMap { latest[$0] }
        queued.subtract(total - merged.count, ordering: .relaxed)
        backlog = [ChangeBatch.make(staged: merged, due: nil, submitted: backlog.last?.pointee.time ?? Self.unixTime())]
    }

    /// Hands timed batches due within the horizon to the audio thread,
    /// stamped with their frame, earliest first, while there is room.
    private func handOver(now: Double) {
        while let first = waiting.first, first.pointee.time - now <= Self.handOverHorizon,
              cuesInFlight < Self.cueCapacity, inFlight < inbox.capacity,
              attached.load(ordering: .sequentiallyConsistent),
              let frame = clock?.frame(atUnixTime: first.pointee.time) {
            first.pointee.frame = frame
            guard inbox.push(first) else { break }
            waiting.removeFirst()
            inFlight += 1
            cuesInFlight += 1
        }
    }

    // MARK: In the audio thread's place (under `producer` and `consumer`, detached)

    /// Does the audio thread's work while none runs: applies every batch for
    /// now (inbox and backlog) and every timed batch whose time has come, in
    /// the order of their times; timed batches the audio thread held go back
    /// to `waiting` (their frames belong to a clock that may not come back).
    private func standIn(now: Double) {
        while let batch = outbox.pop() {
            inFlight -= 1
            if batch.pointee.isTimed { cuesInFlight -= 1 }
            ChangeBatch.free(batch)
        }
        var ready: [ChangeBatch.Pointer] = []
        var returned: [ChangeBatch.Pointer] = []
        while let batch = inbox.pop() {
            inFlight -= 1
            if batch.pointee.isTimed {
                cuesInFlight -= 1
                returned.append(batch)
            } else {
                ready.append(batch)
            }
        }
        while let batch = cues.pointee.removeFirst() {
            inFlight -= 1
            cuesInFlight -= 1
            returned.append(batch)
        }
        ready += backlog
        backlog.removeAll()
        if !returned.isEmpty { waiting = (returned + waiting).sorted { $0.pointee.time < $1.pointee.time } }
        let due = waiting.prefix { $0.pointee.time <= now }
        waiting.removeFirst(due.count)
        // Equal times keep the order they came in: batches for now first.
        let ordered = (ready + due).enumerated().sorted {
            ($0.element.pointee.time, $0.offset) < ($1.element.pointee.time, $1.offset)
        }
        for (_, batch) in ordered { applyAndFree(batch) }
    }

    private func applyAndFree(_ batch: ChangeBatch.Pointer) {
        apply(batch, sampleRate: sampleRate.load(ordering: .relaxed))
        ChangeBatch.free(batch)
    }

    static func unixTime() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
