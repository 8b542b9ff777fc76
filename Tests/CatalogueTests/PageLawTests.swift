import ControlPage
import Foundation
import MixCore
import Testing

/// The page's copy of the console fader law (`page/fader-law.js`, as the
/// binary serves it) held to `FaderLaw.swift` at 1,000 positions, run by
/// Node: a fader that shows -6.0 dB on the page must be -6.0 dB in the rig.
@Suite struct PageLawTests {
    struct Point: Decodable { let position: Double; let db: Double; let gain: Double; let back: Double }

    @Test func theFaderLawOnThePageIsTheRigs() throws {
        // Positions 0…1.05 (+12 dB is 1.05): 1,000 of them, each segment's ends among them.
        let data = try NodeScript.run(page: "fader-law.js") { module, _ in
            """
            import { dbFromPosition, gainFromPosition, positionFromGain } from '\(module)';
            const points = [];
            for (let k = 0; k < 1000; k++) {
              const position = k * 1.05 / 999;
              const gain = gainFromPosition(position);
              points.push({ position, db: dbFromPosition(position), gain, back: positionFromGain(gain) });
            }
            console.log(JSON.stringify(points));
            """
        }
        let points = try JSONDecoder().decode([Point].self, from: data)
        #expect(points.count == 1000)
        for point in points {
            let position = Float(point.position)
            let db = FaderLaw.decibels(position: position), gain = FaderLaw.gain(position: position)
            #expect(abs(point.db - Double(db)) < 1e-4, "dB at \(point.position): page \(point.db), rig \(db)")
            #expect(abs(point.gain - Double(gain)) <= max(1e-9, Double(gain) * 1e-5),
                    "gain at \(point.position): page \(point.gain), rig \(gain)")
            let back = FaderLaw.position(gain: gain)
            #expect(abs(point.back - Double(back)) < 1e-5, "position of \(gain): page \(point.back), rig \(back)")
        }
    }
}
