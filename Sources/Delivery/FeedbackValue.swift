import Catalogue
import OSC

/// One feedback message as it goes out: its address's number in the hub's
/// `AddressTable`, the form it writes its value in, and its bytes on the
/// wire. Made once per change and shared by every subscriber it is queued
/// for: 64 subscribers hold the same value, not 64 copies, and its bytes
/// are encoded once, not once per subscriber.
final class FeedbackValue: Sendable {
    let message: OSCMessage
    let form: Parameter.Form
    /// The address's number: what subscribers' tables are keyed by.
    let slot: Int32
    /// Which value this is, among all the hub has made (from 1): a packet
    /// of the same values in the same order has the same bytes.
    let serial: UInt64
    /// The message as `OSCCodec` writes it.
    let bytes: [UInt8]

    init(_ message: OSCMessage, form: Parameter.Form, slot: Int32, serial: UInt64, bytes: [UInt8]) {
        self.message = message
        self.form = form
        self.slot = slot
        self.serial = serial
        self.bytes = bytes
    }

    /// Bytes it takes inside a bundle: its size, then itself.
    var bundledSize: Int { 4 + bytes.count }
}
