import Logging
import SystemSupport

/// Log lines that stay one line: every message and metadata value has its
/// control characters escaped before it is written, so text from the
/// network (an address, a name, a WebSocket command) can neither forge a
/// line nor drive the terminal, whichever part of the rig logs it.
struct OneLineLogHandler: LogHandler {
    var inner: StreamLogHandler

    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        event.message = "\(event.message.description.escapingControlCharacters())"
        event.metadata = event.metadata?.mapValues { .string("\($0)".escapingControlCharacters()) }
        inner.log(event: event)
    }
}
