/// Byte-level helpers shared by the encoder and the decoder.
enum OSCWire {
    static func appendBigEndian<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    static func appendString(_ string: String, to bytes: inout [UInt8]) {
        appendString(bytes: Array(string.utf8.prefix { $0 != 0 }), to: &bytes)
    }

    /// The bytes, a terminating NUL, and NULs up to the next multiple of four.
    static func appendString(bytes string: [UInt8], to bytes: inout [UInt8]) {
        bytes.append(contentsOf: string)
        bytes.append(0)
        pad(&bytes)
    }

    static func pad(_ bytes: inout [UInt8]) {
        while bytes.count % 4 != 0 { bytes.append(0) }
    }
}

extension OSCWire {
    /// Reads OSC elements from the front of a byte slice.
    struct Reader {
        private var bytes: ArraySlice<UInt8>

        init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

        var isAtEnd: Bool { bytes.isEmpty }
        var remaining: Int { bytes.count }

        mutating func readBigEndian<T: FixedWidthInteger>(_: T.Type) throws(OSCDecodingError) -> T {
            let size = MemoryLayout<T>.size
            guard bytes.count >= size else { throw .truncated }
            var value: T = 0
            for byte in bytes.prefix(size) { value = value << 8 | T(byte) }
            bytes = bytes.dropFirst(size)
            return value
        }

        mutating func readBytes(_ count: Int) throws(OSCDecodingError) -> ArraySlice<UInt8> {
            guard count >= 0, bytes.count >= count else { throw .truncated }
            defer { bytes = bytes.dropFirst(count) }
            return bytes.prefix(count)
        }

        /// An OSC-string: UTF-8 up to a NUL, then padding to four bytes.
        mutating func readString() throws(OSCDecodingError) -> String {
            guard let end = bytes.firstIndex(of: 0) else { throw .malformedString }
            let length = end - bytes.startIndex
            guard let string = String(validating: bytes[bytes.startIndex..<end], as: UTF8.self) else {
                throw .malformedString
            }
            let padded = (length + 4) & ~3
            guard bytes.count >= padded else { throw .truncated }
            bytes = bytes.dropFirst(padded)
            return string
        }

        mutating func skipPadding(after size: Int) throws(OSCDecodingError) {
            let padding = (4 - size % 4) % 4
            _ = try readBytes(padding)
        }
    }
}
