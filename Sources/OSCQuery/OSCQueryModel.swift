/// What an `OSCQueryServer` serves: a namespace built once, its current
/// values, and who may see and change it. Called from the server's
/// threads, possibly concurrently.
public protocol OSCQueryModel: Sendable {
    /// The namespace, built once; its root is `/`.
    var namespace: OSCQueryNamespace { get }

    /// The current values, taken together for one answer.
    func values() -> any OSCQueryValues

    /// The access of a client by the IP address it connects from
    /// (`127.0.0.1`, `::1`; IPv4-mapped IPv6 addresses are given as IPv4).
    func access(for host: String) -> OSCQueryClientAccess
}
