/// What a client, known by the IP address it connects from, may do over
/// HTTP and WebSocket.
public enum OSCQueryClientAccess: Sendable, Equatable {
    /// Query, listen, and set values.
    case full
    /// Query and listen, but not set anything.
    case readOnly
    /// Nothing: HTTP requests get 403, WebSocket upgrades are refused.
    case denied
}
