import Testing

/// Every test that starts processes runs inside this suite, one at a time:
/// a 2-core machine runs one JACK server and one rig well, not five.
@Suite(.serialized) enum Integration {
    /// Sent to every subscriber when what JACK or DNS-SD shows changes, and
    /// not part of the full state: the supervisor's first report of the
    /// other clients' ports can land while a subscriber collects its full
    /// state (seen once on a loaded machine). A test that counts or
    /// compares the full state's addresses leaves them out.
    static let events: Set<String> = ["/jack/ports", "/rigs"]
}
