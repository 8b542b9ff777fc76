/// One DNS-SD service to advertise: its type and the port it answers on.
/// The instance name is the advertisement's, shared by all its services.
public struct AdvertisedService: Sendable, Hashable, CustomStringConvertible {
    /// The service type, e.g. `_osc._udp` or `_oscjson._tcp`.
    public var type: String
    public var port: Int

    public init(type: String, port: Int) {
        self.type = type
        self.port = port
    }

    public var description: String { "\(type) port \(port)" }
}
