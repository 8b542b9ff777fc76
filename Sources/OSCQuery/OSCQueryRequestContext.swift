import Hummingbird
import NIOCore

/// The request context of the OSCQuery HTTP server: Hummingbird's core
/// storage plus the two ends of the connection, which access control and
/// `HOST_INFO` need.
struct OSCQueryRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The client's address.
    let remoteAddress: SocketAddress?
    /// The address the client reached this server at.
    let localAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress
        localAddress = source.channel.localAddress
    }
}
