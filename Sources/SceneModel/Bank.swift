/// The strips of a kind the catalogue describes without a type of its own in
/// the scene (`StripKind.Storage.bank`): each strip's values by parameter
/// name, and what a new strip starts with. Strips are numbered from 1,
/// added at the end and removed from the end, as channels are.
public struct Bank: Equatable, Sendable {
    public private(set) var strips: [[String: Setting]]
    /// A new strip's values; `{n}` in a text is replaced by its number.
    public let blank: [String: Setting]

    public init(count: Int, blank: [String: Setting]) {
        self.blank = blank
        strips = []
        resize(to: count)
    }

    public var count: Int { strips.count }

    /// Strip n's (1-based) value of `name`: its blank value if never set.
    public func value(_ n: Int, _ name: String) -> Setting? {
        guard n >= 1 && n <= strips.count else { return nil }
        return strips[n - 1][name]
    }

    /// Sets strip n's `name`; nothing for a strip the bank does not have.
    public mutating func set(_ n: Int, _ name: String, _ value: Setting) {
        guard n >= 1 && n <= strips.count else { return }
        strips[n - 1][name] = value
    }

    /// Strip n without a value of `name`: a value the blank has not (a
    /// membership) is then off, and scenes that differ only by one set off
    /// and one never set are equal.
    public mutating func remove(_ n: Int, _ name: String) {
        guard n >= 1 && n <= strips.count else { return }
        strips[n - 1][name] = nil
    }

    /// Strip n as `other` has it; nothing where either has no strip n.
    public mutating func keep(_ n: Int, from other: Bank) {
        guard n >= 1 && n <= strips.count && n <= other.strips.count else { return }
        strips[n - 1] = other.strips[n - 1]
    }

    /// To `count` strips: new ones blank at the end, or the last ones gone.
    public mutating func resize(to count: Int) {
        let count = max(0, count)
        if count < strips.count { strips.removeLast(strips.count - count) }
        while strips.count < count { strips.append(Self.strip(strips.count + 1, blank)) }
    }

    /// Strip n's values as they start.
    static func strip(_ n: Int, _ blank: [String: Setting]) -> [String: Setting] {
        blank.mapValues { value(_: $0, of: n) }
    }

    /// A blank value as strip n starts with it: `{n}` in a text its number.
    public static func value(_ blank: Setting, of n: Int) -> Setting {
        if case .text(let text) = blank { .text(text.replacing("{n}", with: "\(n)")) } else { blank }
    }
}
