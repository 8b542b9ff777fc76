import Synchronization

/// JACK's own error and info messages, carried off whichever thread libjack
/// reports them on. On JACK2's failure path that is the process thread
/// (`JackClient::Error` calls `jack_error` and then the shutdown callback
/// there), so `post` only copies bytes into a fixed slot and stores
/// atomics: no allocation, no lock, no logging. The supervisor `drain`s
/// them into the log.
///
/// A ring of `slots` messages of at most `bytes` − 1 bytes each: a message
/// is cut to fit, and when the supervisor falls more than `slots` behind,
/// the oldest are counted as dropped.
final class JackMessages: @unchecked Sendable {
    static let slots = 32
    static let bytes = 256

    /// The one ring: libjack's message functions are process-wide and take
    /// no context. `JackHost.init` touches it first, so that its lazy
    /// initialisation never runs on the process thread.
    static let shared = JackMessages()

    private let text: UnsafeMutablePointer<UInt8>
    private let lengths: UnsafeMutablePointer<Atomic<Int>>
    /// Per slot, the ticket of the message it holds plus one, stored once
    /// the bytes are in; 0 while empty.
    private let stamps: UnsafeMutablePointer<Atomic<Int>>
    /// Tickets handed to writers, in order.
    private let tickets = Atomic<Int>(0)
    /// The next ticket to read, and how many drains in a row it has not
    /// been ready (the supervisor's alone).
    private var next = 0
    private var waited = 0

    init() {
        text = .allocate(capacity: Self.slots * Self.bytes)
        text.initialize(repeating: 0, count: Self.slots * Self.bytes)
        lengths = .allocate(capacity: Self.slots)
        stamps = .allocate(capacity: Self.slots)
        for k in 0..<Self.slots {
            (lengths + k).initialize(to: Atomic(0))
            (stamps + k).initialize(to: Atomic(0))
        }
    }

    deinit {
        text.deallocate()
        lengths.deinitialize(count: Self.slots)
        lengths.deallocate()
        stamps.deinitialize(count: Self.slots)
        stamps.deallocate()
    }

    /// Keeps a message (a C string) for the supervisor. Any thread; real-time safe.
    @_noLocks
    func post(_ message: UnsafePointer<CChar>) {
        let ticket = tickets.add(1, ordering: .relaxed).oldValue
        let slot = ticket % Self.slots
        // A seqlock: the slot is marked as being written before its bytes
        // change, and stamped once they have.
        stamps[slot].store(0, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        let bytes = text + slot * Self.bytes
        var count = 0
        while count < Self.bytes - 1 {
            let byte = UInt8(bitPattern: message[count])
            if byte == 0 { break }
            bytes[count] = byte
            count += 1
        }
        lengths[slot].store(count, ordering: .relaxed)
        stamps[slot].store(ticket + 1, ordering: .releasing)
    }

    /// The messages posted since the last drain, oldest first, and how many
    /// were lost because more than `slots` came in between (or were
    /// overwritten while being read). Supervisor only.
    func drain() -> (messages: [String], dropped: Int) {
        let end = tickets.load(ordering: .acquiring)
        var dropped = 0
        if end - next > Self.slots {
            dropped = end - next - Self.slots
            next = end - Self.slots
        }
        var messages: [String] = []
        while next < end {
            let slot = next % Self.slots
            // Still being written: the rest waits for the next drain; a
            // writer that never finished (a thread cancelled mid-message)
            // holds it up for ten drains at most.
            guard stamps[slot].load(ordering: .acquiring) == next + 1 else {
                waited += 1
                if waited < 10 { break }
                dropped += 1
                next += 1
                waited = 0
                continue
            }
            waited = 0
            let count = lengths[slot].load(ordering: .relaxed)
            let copy = Array(UnsafeBufferPointer(start: text + slot * Self.bytes, count: min(max(count, 0), Self.bytes)))
            atomicMemoryFence(ordering: .acquiring)
            if stamps[slot].load(ordering: .relaxed) == next + 1 {
                messages.append(String(decoding: copy, as: UTF8.self))
            } else {
                dropped += 1 // a writer lapped us while we copied
            }
            next += 1
        }
        return (messages, dropped)
    }
}
