import Synchronization

/// The host's name in `HOST_INFO` (`NAME`), shared by the server and its
/// responder: it follows the DNS-SD name, which may change after a
/// collision while the server runs.
final class OSCQueryHostName: Sendable {
    private let value: Mutex<String>

    init(_ name: String) { value = Mutex(name) }

    var name: String {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
