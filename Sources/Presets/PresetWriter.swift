import Dispatch

/// Writes preset files one after another, in the order they were asked for,
/// on a thread of its own: the thread that handles OSC hands a write over
/// and goes on with the next message instead of waiting for the disk (a
/// durable write is two fsyncs: milliseconds on a quiet disk, tens of them on
/// a busy one). `PresetStore` queues its background saves, deletes and
/// renames here.
public final class PresetWriter: Sendable {
    private let queue = DispatchQueue(label: "crosspoint.preset-writer")

    public init() {}

    /// Runs `job` on the writer's thread after every job submitted before it.
    public func submit(_ job: @escaping @Sendable () -> Void) {
        queue.async(execute: job)
    }

    /// Waits until every job submitted so far has run (at shutdown, so that
    /// a pending save is on disk before the process ends; and in tests).
    /// Never call it from a job.
    public func waitUntilIdle() {
        queue.sync {}
    }
}
