import Foundation
import Shaping
import Testing

/// The page's EQ view and limiter meter (issue 36, docs/page.md "EQ"):
/// `tools/page/eq_check.py` drives a real headless Chromium against the
/// real rig; this test sets the rig up over OSC and asserts on the report.
extension Integration {
@Suite struct PageEQTests {
    @Test func theEQViewDrawsTheRigsCurveAndSetsTheRig() async throws {
        try await withRig(inputs: 4, outputs: 2, arguments: ["--mono-outputs", "1,2"]) { rig in
            for (address, argument) in [("/source/1/hpf/on", OSCTestClient.Argument.int32(1)), ("/source/1/hpf/slope", .float(12)),
                                        ("/source/1/eq/2/freq", .float(1_000)), ("/source/1/eq/2/gain", .float(6)),
                                        ("/source/1/eq/2/q", .float(2)), ("/source/1/eq/2/on", .int32(1)),
                                        ("/source/1/eq/1/on", .int32(1)),
                                        ("/output/1/limiter/ceiling", .float(-20)), ("/output/1/limiter/on", .int32(1))] {
                try rig.osc.send(address, argument)
            }
            try await rig.ping()
            rig.playSine(input: 1, frequency: 997, amplitude: 0.9)
            let page = try await PageTests.runPage("eq", rig: rig, driver: "eq_check.py")
            #expect(page.flag("loaded"), "\(page)")
            #expect((page["before"] as? [String])?.isEmpty == true, "no EQ control before the view is opened: \(page)")
            #expect(page["closed"] as? String == "false" && page.flag("opened"), "the EQ button opens its view: \(page)")
            #expect(page["name"] as? String == "Source 1 EQ")
            let controls = Set(page["controls"] as? [String] ?? [])
            let wanted = ["/source/1/hpf/on", "/source/1/hpf/freq", "/source/1/hpf/slope", "/source/1/eq/on"]
                + (1...4).flatMap { b in ["type", "freq", "gain", "q", "on"].map { "/source/1/eq/\(b)/\($0)" } }
            #expect(controls == Set(wanted), "every value of the EQ has its control: \(controls.symmetricDifference(wanted))")

            // The curve drawn is the rig's response, by the Swift formulas.
            let frequencies = (0...120).map { 20 * pow(1000, Double($0) / 120) }
            func expected(bandOneGain: Double) -> [Double] {
                let sections = Band.cut(.highPass, frequency: 80, slope: .twelve)
                    + [Band(.lowShelf, frequency: 100, gain: bandOneGain, q: 1), Band(.peak, frequency: 1_000, gain: 6, q: 2)]
                return frequencies.map { Cookbook.response(of: sections, at: $0, sampleRate: Double(rig.sampleRate)) }
            }
            let drawn = (page["curve"] as? [Double]) ?? []
            #expect(drawn.count == 121)
            #expect(zip(drawn, expected(bandOneGain: 0)).allSatisfy { abs($0 - $1) < 0.1 }, "the drawn curve: \(drawn)")

            // Band 1's gain from the keyboard: the rig's, and the curve drawn again.
            #expect((page["rig_gain"] as? Double) == 1, "ArrowUp twice (0.5 dB steps) and Enter: \(page)")
            let raised = (page["raised"] as? [Double]) ?? []
            #expect(zip(raised, expected(bandOneGain: 1)).allSatisfy { abs($0 - $1) < 0.1 } && raised.count == 121,
                    "the curve after: \(raised)")

            // A tone at -1 dBFS through a -20 dBFS ceiling: the limiter's bar shows some 19 dB (of 20).
            #expect(((page["meter"] as? Double) ?? 0) > 0.5, "the limiter meter: \(page)")
            #expect((page["after"] as? [String])?.isEmpty == true && page["expanded_after"] as? String == "false",
                    "closed again, its controls gone: \(page)")
        }
    }
}
}
