/// A subscriber's addresses (their numbers in the hub's `AddressTable`)
/// waiting to be sent, oldest first: taken from
/// the front, appended at the back, and put back at the front when popped
/// but not sent (too recent to send again, or no room this turn). Every
/// operation costs what it moves, never the whole queue: a full state
/// leaves one address per parameter form of the rig (200,000 at 256x256).
///
/// An address may stand in it after its message has gone from `pending`
/// (a touch or the client's own value took it out): `take` skips it, so
/// nothing has to search the queue.
struct FeedbackQueue<Element> {
    private var storage: [Element] = []
    private var head = 0

    var isEmpty: Bool { head == storage.count }
    var count: Int { storage.count - head }

    mutating func append(_ address: Element) {
        storage.append(address)
    }

    mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        defer { head += 1 }
        return storage[head]
    }

    /// Puts back, in order, addresses just popped: there is room for them
    /// before `head`, where they were.
    mutating func putBack(_ addresses: [Element]) {
        precondition(addresses.count <= head, "only addresses just popped go back")
        head -= addresses.count
        for (offset, address) in addresses.enumerated() { storage[head + offset] = address }
        compact()
    }

    /// Drops what was taken once it is most of the storage.
    private mutating func compact() {
        if head == storage.count {
            storage.removeAll(keepingCapacity: storage.count < 4096)
            head = 0
        } else if head > 1024 && head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
    }
}

// A generic type is not found Sendable by itself, as a plain struct is.
extension FeedbackQueue: Sendable where Element: Sendable {}
