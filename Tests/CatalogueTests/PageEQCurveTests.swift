import ControlPage
import Foundation
import Shaping
import Testing

/// The page's copy of the EQ's response (`page/eq-curve.js`, as the binary
/// serves it) held to the rig's (`Cookbook.response`), run by Node: random
/// bands of every shape and cuts of both slopes, at 44.1, 48 and 96 kHz, on
/// a log grid from 20 Hz to 20 kHz, within 0.01 dB (the issue asks 0.1).
@Suite struct PageEQCurveTests {
    struct Case: Codable {
        var sections: [Section]
        var sampleRate: Double
        var frequencies: [Double]
        var page: [Double]?
    }

    struct Section: Codable {
        var shape: String
        var frequency: Double
        var gain: Double
        var q: Double
    }

    /// A seeded generator (SplitMix64), so that a failure can be run again.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func thePagesCurveIsTheRigs() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = Seeded(state: seed)
        var cases: [Case] = []
        for sampleRate in [44_100.0, 48_000, 96_000] {
            for _ in 0..<20 {
                var bands = (0..<4).map { _ in
                    Band(BandShape.allCases.randomElement(using: &random)!,
                         frequency: exp(Double.random(in: log(20)...log(20_000), using: &random)),
                         gain: Double.random(in: -15...15, using: &random),
                         q: exp(Double.random(in: log(0.3)...log(16), using: &random)))
                }
                bands += Band.cut(.highPass, frequency: Double.random(in: 20...1000, using: &random),
                                  slope: Band.Slope.allCases.randomElement(using: &random)!)
                bands += Band.cut(.lowPass, frequency: Double.random(in: 1000...20_000, using: &random),
                                  slope: Band.Slope.allCases.randomElement(using: &random)!)
                let frequencies = (0...120).map { 20 * pow(1000, Double($0) / 120) }.filter { $0 < 0.49 * sampleRate }
                // Settings past what the rig runs, kept within it alike (q 0, 30 kHz).
                bands.append(Band(.peak, frequency: 30_000, gain: 3, q: 0))
                cases.append(Case(sections: bands.map { Section(shape: $0.shape.rawValue, frequency: $0.frequency,
                                                                gain: $0.gain, q: $0.q) },
                                  sampleRate: sampleRate, frequencies: frequencies))
            }
        }
        let answered = try Self.runNode(cases)
        try #require(answered.count == cases.count)
        var worst = 0.0
        for (asked, answer) in zip(cases, answered) {
            let bands = asked.sections.map { Band(BandShape(rawValue: $0.shape)!, frequency: $0.frequency, gain: $0.gain, q: $0.q) }
            for (f, page) in zip(asked.frequencies, answer.page ?? []) {
                let rig = Cookbook.response(of: bands, at: f, sampleRate: asked.sampleRate)
                guard rig > -120 else { continue }
                worst = max(worst, abs(page - rig))
                #expect(abs(page - rig) < 0.01, "\(f) Hz at \(asked.sampleRate): page \(page) dB, rig \(rig) dB (seed \(seed))")
            }
            #expect(answer.page?.count == asked.frequencies.count)
        }
        print("the page's EQ curve against the rig's: at most \(worst) dB apart")
    }

    /// Has Node answer every case with the page's `response`.
    static func runNode(_ cases: [Case]) throws -> [Case] {
        let data = try NodeScript.run(page: "eq-curve.js") { module, directory in
            let input = directory.appendingPathComponent("cases.json")
            try JSONEncoder().encode(cases).write(to: input)
            return """
                import { response } from '\(module)';
                import { readFileSync } from 'node:fs';
                const cases = JSON.parse(readFileSync('\(input.path)', 'utf8'));
                for (const c of cases) c.page = response(c.sections, c.frequencies, c.sampleRate);
                console.log(JSON.stringify(cases));
                """
        }
        return try JSONDecoder().decode([Case].self, from: data)
    }
}
