import SystemSupport
#if canImport(Glibc)
import Glibc
#endif

/// Where the OSC layer reports what goes wrong below the controller
/// (malformed packets, connections refused): one line on standard error.
enum OSCLog {
    /// `text` may quote the network: its control characters are escaped.
    static func write(_ text: String) {
        var line = "crosspoint: osc: \(text.escapingControlCharacters())\n"
        line.withUTF8 { bytes in _ = Glibc.write(2, bytes.baseAddress, bytes.count) }
    }
}
