import Synchronization

/// At most one log line per key (a sender) per interval, with a count of
/// what the others would have said: a flood of bad packets writes one
/// line a second per sender, not one per packet (24,265 lines in under a
/// second, before). Remembers at most `keys` senders; past that, the ones
/// not heard within the interval are forgotten first, and a flood from more
/// senders than that shares one key (`"others"`).
public final class LinePace: Sendable {
    private struct Window {
        var start: ContinuousClock.Instant
        var held = 0
    }

    private let interval: Duration
    private let keys: Int
    private let windows = Mutex<[String: Window]>([:])

    public init(interval: Duration = .seconds(1), keys: Int = 1_024) {
        self.interval = interval
        self.keys = keys
    }

    /// Whether to write a line for `key` now, and how many were held back
    /// since the last one written (nil: hold this one back too).
    public func admit(_ key: String, now: ContinuousClock.Instant = .now) -> Int? {
        windows.withLock { windows in
            var key = key
            if windows[key] == nil && windows.count >= keys {
                windows = windows.filter { now - $0.value.start < interval }
                if windows.count >= keys { key = "others" }
            }
            guard var window = windows[key] else {
                windows[key] = Window(start: now)
                return 0
            }
            guard now - window.start >= interval else {
                window.held += 1
                windows[key] = window
                return nil
            }
            windows[key] = Window(start: now)
            return window.held
        }
    }
}
