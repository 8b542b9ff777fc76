/// The control side in the audio thread's place, while none is attached
/// (JACK away, offline tests, the bench): under `producer` and `consumer`.
extension Mixer {
    /// Does the audio thread's work while none runs: applies every batch for
    /// now (inbox and backlog) and every timed batch whose time has come, in
    /// the order of their times; timed batches the audio thread held go back
    /// to `waiting` (their times belong to a clock that may not come back).
    /// A kernel swap among the batches for now is a barrier: what came
    /// before it applies to the kernel it replaces, then it is taken, then
    /// the rest.
    func standIn(now: Double) {
        while let batch = outbox.pop() {
            inFlight -= 1
            if batch.pointee.isTimed { cuesInFlight -= 1 }
            ChangeBatch.free(batch)
        }
        var ready: [ChangeBatch.Pointer] = []
        var timed: [ChangeBatch.Pointer] = []
        while let batch = inbox.pop() {
            inFlight -= 1
            if batch.pointee.isTimed {
                cuesInFlight -= 1
                timed.append(batch)
            } else {
                ready.append(batch)
            }
        }
        while let batch = cues.pointee.removeFirst() {
            inFlight -= 1
            cuesInFlight -= 1
            timed.append(batch)
        }
        ready += backlog
        backlog.removeAll()
        // Stable: equal times keep their order.
        timed = (timed + waiting).enumerated().sorted {
            ($0.element.pointee.time, $0.offset) < ($1.element.pointee.time, $1.offset)
        }.map(\.element)
        var start = 0
        while true {
            let end = ready[start...].firstIndex { $0.pointee.isSwap } ?? ready.count
            // Timed batches due now, staged for the kernel in place.
            let current = rendering.pointee.generation
            let due = timed.filter { $0.pointee.time <= now && $0.pointee.generation == current }
            timed.removeAll { $0.pointee.time <= now && $0.pointee.generation == current }
            // Equal times keep the order they came in: batches for now first.
            let ordered = (Array(ready[start..<end]) + due).enumerated().sorted {
                ($0.element.pointee.time, $0.offset) < ($1.element.pointee.time, $1.offset)
            }
            for (_, batch) in ordered { applyAndFree(batch) }
            guard end < ready.count else { break }
            let swap = ready[end]
            swapKernel(swap)
            if let staged = swap.pointee.swap {
                for batch in timed where batch.pointee.generation == current { batch.pointee.restage(by: UnsafePointer(staged)) }
            }
            ChangeBatch.free(swap)
            start = end + 1
        }
        waiting = timed
    }

    func applyAndFree(_ batch: ChangeBatch.Pointer) {
        apply(batch, sampleRate: sampleRate.load(ordering: .relaxed))
        ChangeBatch.free(batch)
    }
}
