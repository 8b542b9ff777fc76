#if canImport(Glibc)
import Glibc
#endif

/// Where the OSC layer reports what liblo tells it (malformed packets,
/// socket errors): one line on standard error.
enum OSCLog {
    static func write(_ text: String) {
        var line = "crosspoint: osc: \(text)\n"
        line.withUTF8 { bytes in _ = Glibc.write(2, bytes.baseAddress, bytes.count) }
    }
}
