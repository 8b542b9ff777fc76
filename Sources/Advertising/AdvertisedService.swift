/// One DNS-SD service to advertise: its type, the port it answers on, and
/// its TXT record's `key=value` strings. The instance name is the
/// advertisement's, shared by all its services.
public struct AdvertisedService: Sendable, Hashable, CustomStringConvertible {
    /// The service type, e.g. `_osc._udp` or `_oscjson._tcp`.
    public var type: String
    public var port: Int
    public var txt: [String]

    public init(type: String, port: Int, txt: [String] = []) {
        self.type = type
        self.port = port
        self.txt = txt
    }

    public var description: String { "\(type) port \(port)" }
}
