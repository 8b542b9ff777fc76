/// The groups a strip belongs to: DCAs or mute groups, numbered 1…32.
public struct Groups: Equatable, Hashable, Sendable {
    /// Bit g − 1 set: a member of group g.
    public private(set) var bits: UInt32

    /// The most groups of one kind a rig has (`serve --dcas`, `--mute-groups`).
    public static let most = 32

    public init(bits: UInt32 = 0) { self.bits = bits }

    public init(_ groups: some Sequence<Int>) {
        bits = 0
        for g in groups { insert(g) }
    }

    /// Whether it belongs to group g (1-based); never for a g out of 1…32.
    public func contains(_ g: Int) -> Bool {
        g >= 1 && g <= Self.most && bits & (1 << UInt32(g - 1)) != 0
    }

    public mutating func insert(_ g: Int) {
        guard g >= 1 && g <= Self.most else { return }
        bits |= 1 << UInt32(g - 1)
    }

    public mutating func remove(_ g: Int) {
        guard g >= 1 && g <= Self.most else { return }
        bits &= ~(1 << UInt32(g - 1))
    }

    public mutating func set(_ g: Int, _ member: Bool) {
        if member { insert(g) } else { remove(g) }
    }

    /// The groups, in order.
    public var members: [Int] { (1...Self.most).filter(contains) }

    /// Only the groups 1…count (a rig with fewer groups).
    public func prefix(_ count: Int) -> Groups {
        count >= Self.most ? self : Groups(bits: bits & ((1 << UInt32(max(0, count))) - 1))
    }

    public var isEmpty: Bool { bits == 0 }
}
