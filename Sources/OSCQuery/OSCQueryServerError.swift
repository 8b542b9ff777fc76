/// Why an `OSCQueryServer` could not start, or an answer could not be sent.
public enum OSCQueryServerError: Error, Equatable, Sendable {
    /// `start()` was called on a server that was started before.
    case alreadyStarted
    /// The server ended before it was listening.
    case stoppedBeforeListening
    /// zlib could not compress an answer (out of memory): its connection is closed.
    case compressionFailed
    /// The HTTP port could not be listened on: its address and port, and why.
    case cannotListen(address: String, port: Int, reason: String)
}

extension OSCQueryServerError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .alreadyStarted: "the OSCQuery server was started twice"
        case .stoppedBeforeListening: "the OSCQuery server stopped before it listened"
        case .compressionFailed: "zlib could not compress an answer"
        case .cannotListen(let address, let port, let reason):
            "cannot listen for HTTP (the page, OSCQuery) on TCP \(address):\(port): \(reason)"
                + (reason.lowercased().contains("in use") ? " (another rig or program has it: --http-port P, or --no-http)" : "")
        }
    }
}
