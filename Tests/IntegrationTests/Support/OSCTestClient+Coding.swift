import OSC
import OSCOracle

// OSC encoding and decoding through the oracle (Tests/OSCOracle), written
// from the specification and independent of the product's codec: what the
// rig sends is read by a decoder it does not share. Bundles are walked here
// so that messages inside them, however nested, come out with their
// innermost bundle's time tag.

extension OSCTestClient {
    /// The wire bytes of a message or bundle.
    static func encode(_ packet: Packet) -> [UInt8] {
        OSCOracle.encode(packet)
    }

    /// Decodes one datagram into the messages it holds (several if it is a
    /// bundle). Returns nil if any part is not valid OSC.
    static func decode(datagram bytes: [UInt8], sender: Endpoint,
                       receivedAt: ContinuousClock.Instant) -> [ReceivedMessage]? {
        guard let packet = try? OSCOracle.decode(bytes) else { return nil }
        var messages: [ReceivedMessage] = []
        func collect(_ packet: Packet, bundleTimeTag: TimeTag?) {
            switch packet {
            case .message(let message):
                messages.append(ReceivedMessage(address: message.address, typeTags: message.typeTags,
                                                arguments: message.arguments, bundleTimeTag: bundleTimeTag,
                                                sender: sender, receivedAt: receivedAt))
            case .bundle(let timeTag, let elements):
                for element in elements { collect(element, bundleTimeTag: timeTag) }
            }
        }
        collect(packet, bundleTimeTag: nil)
        return messages
    }
}
