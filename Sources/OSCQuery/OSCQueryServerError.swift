/// Why an `OSCQueryServer` could not start, or an answer could not be sent.
public enum OSCQueryServerError: Error, Equatable, Sendable {
    /// `start()` was called on a server that was started before.
    case alreadyStarted
    /// The server ended before it was listening.
    case stoppedBeforeListening
    /// zlib could not compress an answer (out of memory): its connection is closed.
    case compressionFailed
}
