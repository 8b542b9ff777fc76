import Logging
import SystemSupport

/// Log lines that stay one line: every message and metadata value has its
/// control characters escaped before it is written, so text from the
/// network (an address, a name, a WebSocket command) can neither forge a
/// line nor drive the terminal, whichever part of the rig logs it; and a
/// message is cut to 1,536 characters (quoted text is cut to 256 where it
/// is quoted: `String.cut`).
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
        // Cut as well: a line is at most a few thousand characters, whatever
        // text was quoted in it.
        event.message = "\(event.message.description.cut(to: 1_536).escapingControlCharacters())"
        event.metadata = event.metadata?.mapValues { .string("\($0)".escapingControlCharacters()) }
        inner.log(event: event)
    }
}
