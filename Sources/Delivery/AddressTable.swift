import Catalogue
import OSC
import Synchronization

/// Every address feedback has carried, numbered once: a subscriber's
/// tables are keyed by the number, so that a change sent to 64 subscribers
/// hashes its address once, not once per subscriber and per table.
///
/// It has its own lock, under which nothing else is taken: a full state's
/// 200,000 addresses are looked up here without holding the hub's, which
/// every client's message and every turn of sending take (the hub may
/// hold its own while it asks here, never the other way). It only grows, to the addresses the rig
/// has (those of its largest size so far), plus the few of presets and status.
final class AddressTable: Sendable {
    private struct Numbers {
        var slots: [String: Int32] = [:]
        var serial: UInt64 = 0
    }

    private let numbers = Mutex(Numbers())

    /// Values for `messages`, each numbered and encoded once; a message
    /// liblo cannot encode (out of memory) is left out.
    func values(_ messages: [OSCMessage], forms: [Parameter.Form]) -> [FeedbackValue] {
        // Encoded before the lock: liblo's work is the larger part.
        let encoded = messages.map { OSCCodec.encode(.message($0)) }
        return numbers.withLock { numbers in
            var values: [FeedbackValue] = []
            values.reserveCapacity(messages.count)
            for ((message, form), bytes) in zip(zip(messages, forms), encoded) {
                guard let bytes else { continue }
                numbers.serial += 1
                values.append(FeedbackValue(message, form: form, slot: Self.slot(message.address, in: &numbers),
                                            serial: numbers.serial, bytes: bytes))
            }
            return values
        }
    }

    func values(_ feedback: Feedback) -> [FeedbackValue] {
        values(feedback.messages, forms: feedback.forms)
    }

    /// The number of each address, given one if it has none yet.
    func slots(_ addresses: [String]) -> [Int32] {
        numbers.withLock { numbers in addresses.map { Self.slot($0, in: &numbers) } }
    }

    func slot(_ address: String) -> Int32 { slots([address])[0] }

    var count: Int { numbers.withLock { $0.slots.count } }

    private static func slot(_ address: String, in numbers: inout Numbers) -> Int32 {
        if let slot = numbers.slots[address] { return slot }
        let slot = Int32(clamping: numbers.slots.count)
        numbers.slots[address] = slot
        return slot
    }
}
