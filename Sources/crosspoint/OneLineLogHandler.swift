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

    func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String,
             file: String, function: String, line: UInt) {
        inner.log(level: level, message: "\(message.description.escapingControlCharacters())",
                  metadata: metadata?.mapValues { .string("\($0)".escapingControlCharacters()) },
                  source: source, file: file, function: function, line: line)
    }
}
