import Catalogue

/// The fast path of `resolve`: a plain address naming one parameter, read
/// straight from its bytes. This is what a moving fader sends hundreds of
/// times a second, so it must not pay for pattern matching, splitting into
/// substrings or building arrays of candidates.
extension AddressSpace {
    /// The one target a literal, valid parameter address names:
    ///
    ///     /matrix/{in}/{out}[/leaf][/delta]   /source/{n}/leaf[/delta]
    ///     /output/{m}/leaf[/delta]   /master/leaf[/delta]
    ///     /dca/{g}/leaf[/delta]   /mutegroup/{g}/leaf[/delta]
    ///
    /// and so on for every numbered or single kind of the catalogue's
    ///
    /// (an encoder's steps come as fast as a fader's values).
    ///
    /// Nil for anything else, patterns and errors included: the general
    /// path answers those (with the same result for every address this
    /// accepts; a test holds the two to that).
    func literalTarget(_ address: String) -> Target? {
        var address = address
        return address.withUTF8 { bytes in
            var parts = AddressParts(bytes)
            guard let head = parts.next() else { return nil }
            let strip: Parameter.Strip, place: Parameter.Place
            if head.equals("matrix") {
                guard let i = parts.next()?.channel(limit: inputs), let o = parts.next()?.channel(limit: outputs)
                else { return nil }
                (strip, place) = (.crosspoint, .crosspoint(input: i, output: o))
            } else if let kind = literalHeads.first(where: { head.equals($0.head) })?.kind {
                if kind.shape == .single {
                    (strip, place) = (kind.strip, kind.place(1, 0))
                } else {
                    guard let n = parts.next()?.channel(limit: counts[kind.strip] ?? 0) else { return nil }
                    (strip, place) = (kind.strip, kind.place(n, 0))
                }
            } else {
                return nil
            }
            // At most four parts after the place: a leaf of up to three
            // (`eq/2/gain`) and `delta`.
            let after = (parts.next(), parts.next(), parts.next(), parts.next())
            guard parts.isAtEnd, let candidates = literalLeaves[strip] else { return nil }
            for candidate in candidates where Self.names(candidate.parts, after) {
                return candidate.leaf.target(at: place)
            }
            return nil
        }
    }
}

extension AddressSpace {
    /// Whether the parts after a place (none to four) are exactly a leaf's.
    fileprivate static func names(_ leaf: [[UInt8]],
                                  _ after: (AddressPart?, AddressPart?, AddressPart?, AddressPart?)) -> Bool {
        let count = after.0 == nil ? 0 : after.1 == nil ? 1 : after.2 == nil ? 2 : after.3 == nil ? 3 : 4
        guard leaf.count == count else { return false }
        return (count < 1 || after.0?.equals(leaf[0]) == true) && (count < 2 || after.1?.equals(leaf[1]) == true)
            && (count < 3 || after.2?.equals(leaf[2]) == true) && (count < 4 || after.3?.equals(leaf[3]) == true)
    }
}

/// The parts of an address between its slashes, in order. An address that
/// does not start with a slash, or has an empty part, yields none.
private struct AddressParts {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var broken = false

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        broken = bytes.first != UInt8(ascii: "/")
    }

    var isAtEnd: Bool { !broken && position == bytes.count }

    mutating func next() -> AddressPart? {
        guard !broken, position < bytes.count else { return nil }
        let start = position + 1 // past the slash
        var end = start
        while end < bytes.count && bytes[end] != UInt8(ascii: "/") { end += 1 }
        guard end > start else { broken = true; return nil }
        position = end
        return AddressPart(bytes: UnsafeBufferPointer(rebasing: bytes[start..<end]))
    }
}

private struct AddressPart {
    let bytes: UnsafeBufferPointer<UInt8>

    func equals(_ name: StaticString) -> Bool {
        name.utf8CodeUnitCount == bytes.count
            && name.withUTF8Buffer { $0.elementsEqual(bytes) }
    }

    func equals(_ name: [UInt8]) -> Bool {
        !name.isEmpty && name.count == bytes.count && name.elementsEqual(bytes)
    }

    /// A channel number 1…limit written plainly (no sign, no leading zero).
    func channel(limit: Int) -> Int? {
        guard let first = bytes.first, first != UInt8(ascii: "0"), bytes.count <= 6 else { return nil }
        var number = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            number = number * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return number <= limit ? number : nil
    }
}
