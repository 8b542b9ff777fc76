import JSON
import Foundation
import MixCore
import SceneModel
@testable import Presets
import Testing

/// The numbers of a one-array document, as the parser reads them.
private func numbers(_ json: String) throws -> [Double] {
    try JSONDocument.read(Array(json.utf8), failure: { $0 }) { root throws(JSONDocument.ParseError) -> [Double] in
        root.array.map { $0.map { $0.number ?? .nan } } ?? []
    }
}

private func parseError(_ json: String) -> String? {
    do {
        try JSONDocument.read(Array(json.utf8), failure: { $0 }) { _ throws(JSONDocument.ParseError) in }
        return nil
    } catch {
        return error.description
    }
}

private func decode(_ json: String) throws(FileError) -> Preset {
    try PresetCoding.decode(Data(json.utf8), file: "p.json")
}

private let header = #""format": "crosspoint-preset", "version": 1, "channels": {"inputs": 2, "outputs": 2}"#

/// A 2x2 preset with `field` is refused with exactly `message`.
private func expectRefusal(_ field: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        _ = try decode("{\(header), \(field)}")
        Issue.record("decoded \(field)", sourceLocation: sourceLocation)
    } catch {
        #expect(error.description == message, sourceLocation: sourceLocation)
    }
}

@Suite struct JSONNumberTests {
    /// Numbers are read from the bytes; every one must be the Double the
    /// standard library makes of the same text, bit for bit.
    @Test(arguments: [
        "0", "-0", "0.0", "-0.0", "1", "-1", "0.5", "1e2", "1E2", "1e+2", "1e-2", "-1.5e-3", "3.999", "0.50118721",
        "0.000001", "1e22", "1e23", "1e-22", "1e-23", "123456789012345678", "1234567890123456789",
        "12345678901234567890", "9007199254740992", "9007199254740993", "9007199254740993e-5", "0.1", "0.3",
        "2.2250738585072014e-308", "4.9e-324", "1.7976931348623157e308", "1e-400", "0e999", "-0e-999",
        "0.0000000000000000000000000001", "100000000000000000000000000000", "1.00000000000000000000000001",
        "3600", "4", "1e0", "00012", "7.0e-1", "1e99999999999999999999", "1e-99999999999999999999",
    ])
    func numbersAreExactlyTheStandardLibrarys(text: String) throws {
        let read = try numbers("[\(text)]")
        let expected = try #require(Double(text))
        #expect(read.count == 1)
        #expect(read.first?.bitPattern == expected.bitPattern, "\(text): \(read) vs \(expected)")
    }

    @Test func randomNumbersAgreeBitForBit() throws {
        var state: UInt64 = 0x5eed_1234
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var texts: [String] = []
        for _ in 0..<20_000 {
            let digits = String(next() % 10_000_000_000_000_000_000)
            let point = Int(next() % UInt64(digits.count + 1))
            var text = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
            if text.hasPrefix(".") { text = "0" + text }
            if text.hasSuffix(".") { text += "0" }
            if next() % 2 == 0 { text += "e\(Int(next() % 61) - 30)" }
            if next() % 2 == 0 { text = "-" + text }
            texts.append(text)
        }
        // As the preset writer writes gains: the shortest text of a Float.
        for _ in 0..<20_000 { texts.append("\(Float(bitPattern: UInt32(truncatingIfNeeded: next())).magnitude)") }
        texts = texts.filter { !$0.contains("nan") && !$0.contains("inf") }
        let read = try numbers("[" + texts.joined(separator: ", ") + "]")
        #expect(read.count == texts.count)
        for (text, value) in zip(texts, read) where value.bitPattern != Double(text)?.bitPattern {
            Issue.record("\(text) read as \(value), expected \(Double(text) as Any)")
            break
        }
    }

    @Test(arguments: [
        ("[-]", "expected a value at byte 2"),
        ("[1.]", "expected digits after '.' at byte 3"),
        ("[.5]", "expected a value at byte 1"),
        ("[1e]", "expected digits in an exponent at byte 3"),
        ("[1e+]", "expected digits in an exponent at byte 4"),
        ("[+1]", "expected a value at byte 1"),
        ("[1, 2", "unexpected end in an array at byte 5"),
        ("[1 2]", "expected ']' at byte 3"),
        ("{\"a\": 1} x", "unexpected data after the document at byte 9"),
    ])
    func malformedNumbersAndDocumentsSayWhereAndWhat(json: String, message: String) {
        #expect(parseError(json) == message)
    }

    @Test func negativeZeroReadsAsNegativeZeroAndIsInRange() throws {
        let preset = try decode(#"{\#(header), "crosspoints": [{"in": 1, "out": 2, "volume": -0}], "master": {"volume": -0.0}}"#)
        #expect(preset.scene.crosspoints[1, 2] == 0 && preset.scene.crosspoints[1, 2].sign == .minus)
        #expect(preset.scene.master.volume.sign == .minus)
        let map = try decode(#"{\#(header), "map": [-0, 1e0]}"#).scene.crosspoints
        #expect(map.gains == [0, 1, 0, 0], "-0 is output 1's \"no input\", 1e0 gives output 2 input 1")
    }

    @Test func exponentsAreReadInFields() throws {
        let preset = try decode(#"{\#(header), "fade": 2.5E+1, "crosspoints": [{"in": 1e0, "out": 20e-1, "volume": 3999e-3}]}"#)
        #expect(preset.fade == 25)
        #expect(preset.scene.crosspoints[1, 2] == Float(3.999))
    }

    @Test(arguments: [
        (#""fade": 1e400"#, "p.json: fade: expected a number from 0 to 3600, got a number"),
        (#""fade": -1e400"#, "p.json: fade: expected a number from 0 to 3600, got a number"),
        (#""fade": 1e99999999999999999999"#, "p.json: fade: expected a number from 0 to 3600, got a number"),
        (#""fade": 3600.0000000000005"#, "p.json: fade: 3600.0000000000005 is out of range 0 to 3600"),
        (#""master": {"volume": 4e0001}"#, "p.json: master.volume: 40 is out of range 0 to 4"),
        (#""crosspoints": [{"in": 1e300, "out": 1, "volume": 1}]"#, "p.json: crosspoints[0].in: 1e+300 is out of range 1 to 2"),
        (#""crosspoints": [{"in": 1.5e0, "out": 1, "volume": 1}]"#, "p.json: crosspoints[0].in: expected a whole number from 1 to 2, got a number"),
    ])
    func hugeAndNonFiniteNumbersAreRefused(field: String, message: String) {
        expectRefusal(field, message)
    }
}

@Suite struct JSONFieldTests {
    @Test(arguments: [
        (#""crosspoints": [{"in": 1, "out": 1, "volume": 1, "gain": 2}]"#,
         "p.json: crosspoints[0].gain: unknown field (expected one of: in, out, volume)"),
        (#""crosspoints": [{"in": 1, "out": 1, "volume": 1}, {"zz": 1, "aa": 2}]"#,
         "p.json: crosspoints[1].aa: unknown field (expected one of: in, out, volume)"),
        (#""crosspoints": [{"in": 1, "out": 1, "vølume": 1}]"#,
         "p.json: crosspoints[0].vølume: unknown field (expected one of: in, out, volume)"),
        (#""crosspoints": [{"in": 1, "volume": 1}]"#, "p.json: crosspoints[0].out: missing"),
        (#""crosspoints": [1]"#, "p.json: crosspoints[0]: expected an object, got a number"),
        (#""crosspoints": {"in": 1}"#, "p.json: crosspoints: expected an array, got an object"),
        (#""crosspoints": [{"in": "1", "out": 1, "volume": 1}]"#,
         "p.json: crosspoints[0].in: expected a whole number from 1 to 2, got a string"),
        (#""crosspoints": [{"in": 1, "out": 1, "volume": true}]"#,
         "p.json: crosspoints[0].volume: expected a number from 0 to 4, got a boolean"),
        (#""sources": [{}, {"pan": 2}]"#, "p.json: sources[1].pan: 2 is out of range -1 to 1"),
        (#""outputs": [{"name": 5}]"#, "p.json: outputs[0].name: expected a string, got a number"),
    ])
    func errorsNameTheFieldWhereverItIs(field: String, message: String) {
        expectRefusal(field, message)
    }

    @Test func aKeyGivenTwiceTakesItsLastValue() throws {
        let preset = try decode(#"{\#(header), "fade": 1, "fade": 2, "crosspoints": [{"in": 1, "out": 1, "volume": 0.5, "volume": 0.25, "in": 2}]}"#)
        #expect(preset.fade == 2)
        #expect(preset.scene.crosspoints[2, 1] == 0.25 && preset.scene.crosspoints[1, 1] == 0)
    }

    @Test func keysWithEscapesAreTheKeysTheySpell() throws {
        let preset = try decode(#"{\#(header), "crosspoints": [{"\u0069n": 2, "o\u0075t": 1, "volume": 0.5}], "n\u0061me": "x"}"#)
        #expect(preset.scene.crosspoints[2, 1] == 0.5)
        #expect(preset.name == "x")
    }

    @Test func stringsOtherThanPlainASCIIAreDecoded() throws {
        let preset = try decode(#"{\#(header), "sources": [{"name": "scène ✓"}, {"name": "tab\tx\u00e9"}]}"#)
        #expect(preset.scene.sources[0].name == "scène ✓")
        #expect(preset.scene.sources[1].name == "tab\txé")
    }

    @Test func a64x64PresetReadsBackEveryCrosspoint() throws {
        var scene = Scene(inputs: 64, outputs: 64)
        for n in 1...64 {
            for m in 1...64 { scene.crosspoints[n, m] = Float(n * 64 + m) / 4096 * 0.9 + 0.01 }
        }
        let preset = Preset(name: "big", fade: 0.05, scene: scene)
        #expect(try PresetCoding.decode(PresetCoding.encode(preset), file: "big.json") == preset)
    }
}
