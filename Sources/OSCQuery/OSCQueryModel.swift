/// What an `OSCQueryServer` serves: the namespace with current values, and
/// who may see and change it. Called from the server's threads, possibly
/// concurrently, for every request; answers must be current.
public protocol OSCQueryModel: Sendable {
    /// The whole namespace with current values; its root's `fullPath` is `/`.
    func namespace() -> OSCQueryNode

    /// The node at an OSC address, or nil if there is none. The default
    /// walks `namespace()`; a model with a faster path overrides it.
    func node(at path: String) -> OSCQueryNode?

    /// The access of a client by the IP address it connects from
    /// (`127.0.0.1`, `::1`; IPv4-mapped IPv6 addresses are given as IPv4).
    func access(for host: String) -> OSCQueryClientAccess
}

extension OSCQueryModel {
    public func node(at path: String) -> OSCQueryNode? {
        namespace().descendant(at: path)
    }
}
