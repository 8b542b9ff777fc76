import Logging
import OSC
import Synchronization
import SystemSupport

extension FeedbackHub {
    /// How fast feedback goes to a subscriber, by where it is.
    public enum Pace: Equatable, Sendable {
        /// UDP: on average `perMillisecond` datagrams a millisecond, at most
        /// `burst` at once. Nothing tells a UDP sender that the receiver
        /// keeps up, so the rate is fixed.
        case datagrams(perMillisecond: Double, burst: Double)
        /// A TCP connection or a WebSocket: as many packets as its socket
        /// or queue has room for (`Room`), so as fast as the client reads.
        case stream

        /// A UDP client on another machine: a tablet on Wi-Fi, which loses
        /// bursts (1.4 MB/s).
        public static let remote = Pace.datagrams(perMillisecond: 1, burst: 10)
        /// A UDP client on this machine (loopback, or one of its own
        /// addresses): nothing between but the kernel; 11 MB/s, in bursts
        /// that fit a default socket receive buffer (208 KiB) many times over.
        public static let local = Pace.datagrams(perMillisecond: 8, burst: 32)

        public static func of(_ destination: OSCPeer) -> Pace {
            switch destination.transport {
            case .udp: destination.address.isThisMachine ? .local : .remote
            case .tcp, .webSocket, .surface: .stream
            }
        }
    }
}
