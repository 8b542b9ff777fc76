extension OSCPacket {
    /// The packet in OSC 1.0 binary form: a message as it is, a bundle as
    /// `#bundle`, the time tag, then each message preceded by its size.
    ///
    /// - Parameter timeTag: the bundle's time tag; ignored for a single message.
    public func encoded(timeTag: OSCTimeTag = .immediately) -> [UInt8] {
        switch self {
        case .message(let message):
            return message.encoded()
        case .bundle(let messages):
            var bytes: [UInt8] = []
            OSCWire.appendString("#bundle", to: &bytes)
            OSCWire.appendBigEndian(timeTag.seconds, to: &bytes)
            OSCWire.appendBigEndian(timeTag.fraction, to: &bytes)
            for message in messages {
                let sizeAt = bytes.count
                OSCWire.appendBigEndian(UInt32(0), to: &bytes)
                message.append(to: &bytes)
                let size = UInt32(bytes.count - sizeAt - 4)
                withUnsafeBytes(of: size.bigEndian) { raw in
                    for (i, byte) in raw.enumerated() { bytes[sizeAt + i] = byte }
                }
            }
            return bytes
        }
    }
}
