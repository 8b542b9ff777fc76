/// Who sent a message: the host and port replies go back to.
public struct OSCPeer: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: String

    public init(host: String, port: String) {
        self.host = host
        self.port = port
    }

    public var description: String { "\(host):\(port)" }
}
