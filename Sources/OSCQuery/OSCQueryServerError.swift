/// Why an `OSCQueryServer` could not start.
public enum OSCQueryServerError: Error, Equatable, Sendable {
    /// `start()` was called on a server that was started before.
    case alreadyStarted
    /// The server ended before it was listening.
    case stoppedBeforeListening
}
