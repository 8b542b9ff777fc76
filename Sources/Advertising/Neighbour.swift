/// Another rig on the network, as DNS-SD found it: a service of the type
/// browsed for whose TXT record says it is one of ours (`app=crosspoint`).
public struct Neighbour: Sendable, Hashable, Comparable {
    /// Its instance name (`Crosspoint crosspoint on stage-left`).
    public var name: String
    /// The IPv4 address its service resolved to, and its port.
    public var address: String
    public var port: Int

    public init(name: String, address: String, port: Int) {
        self.name = name
        self.address = address
        self.port = port
    }

    /// Its page, for an `_oscjson._tcp` service: the page is served on the
    /// OSCQuery port.
    public var pageURL: String { "http://\(address):\(port)/" }

    public static func < (a: Neighbour, b: Neighbour) -> Bool { (a.name, a.address, a.port) < (b.name, b.address, b.port) }
}
