@testable import RigControl
import Testing

@Suite struct AddressSpaceTests {
    let space = AddressSpace(inputs: 12, outputs: 10)

    /// Addresses near every branch of the literal fast path: valid, out of
    /// range, misspelt, malformed, and patterns it must leave alone.
    static let addresses: [String] = {
        var list: [String] = []
        let numbers = ["0", "1", "2", "9", "10", "11", "12", "13", "01", "+1", "-1", "1a", "999999", "9999999", "*", "?", "[1-3]", "{1,12}", ""]
        for a in numbers {
            list += ["/source/\(a)/volume", "/source/\(a)/pan", "/source/\(a)/name", "/source/\(a)/gain",
                     "/output/\(a)/mute", "/output/\(a)/pan", "/safe/source/\(a)"]
            for b in numbers.prefix(12) {
                list += ["/matrix/\(a)/\(b)", "/matrix/\(a)/\(b)/db", "/matrix/\(a)/\(b)/fader", "/matrix/\(a)/\(b)/dB"]
            }
        }
        list += ["/master/volume", "/master/db", "/master/fader", "/master/mute", "/master/pan", "/master",
                 "/master/volume/", "/master//volume", "master/volume", "//master/volume", "/matrix/1/1/", "/matrix/1/1/db/x",
                 "/matrix/1", "/matrix/map", "/matrix/clear", "/source/1", "/source/1/volume/x", "/status", "/ping",
                 "/preset/recall", "/meters/subscribe", "/subscribe", "/", "", "/source/1/volum", "/source/1/volumes",
                 "/Source/1/volume", "/sources/1/volume", "/matrix/1/1\u{0}", "/source/١/volume", "/matrix/1/1/ db"]
        return list
    }()

    @Test func theFastPathAgreesWithThePatternPath() {
        var fast = 0
        for address in Self.addresses {
            #expect(space.resolve(address) == space.resolveByPattern(address), "\(address)")
            if space.literalTarget(address) != nil { fast += 1 }
        }
        // The fast path does answer every valid plain address above: 6 valid
        // inputs x 4 valid outputs x 3 units, 6 sources x 3, 4 outputs, 4 master.
        #expect(fast == 72 + 18 + 4 + 4)
        #expect(space.literalTarget("/matrix/12/10/fader") == .crosspoint(input: 12, output: 10, .fader))
        #expect(space.literalTarget("/source/3/pan") == .source(3, .pan))
        #expect(space.literalTarget("/output/10/name") == .output(10, .name))
        #expect(space.literalTarget("/master/db") == .master(.db))
    }

    @Test func errorsStillNameTheProblem() {
        #expect(space.resolve("/source/13/volume") == .failure(.outOfRange(what: "source", number: 13, limit: 12)))
        #expect(space.resolve("/matrix/1/11") == .failure(.outOfRange(what: "output", number: 11, limit: 10)))
        #expect(space.resolve("/matrix/01/1") == .failure(.unknownAddress))
        #expect(space.resolve("/source/1/gain") == .failure(.unknownAddress))
    }
}
