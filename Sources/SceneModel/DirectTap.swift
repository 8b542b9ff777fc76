/// Where a source's direct out (`direct_n`, for a multitrack recorder or a
/// broadcast feed) takes its signal: nowhere (no port), after polarity
/// (`pre`: before level and mute), or after level and mute (`post`; never
/// silenced by another source's solo).
public enum DirectTap: String, CaseIterable, Sendable {
    case off, pre, post

    /// The value the kernel's direct block holds: 0, 1, 2.
    public var number: Float { Float(Self.allCases.firstIndex(of: self) ?? 0) }
}
