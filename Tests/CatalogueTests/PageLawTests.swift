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
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("xp-law-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let law = try #require(ControlPage.files["fader-law.js"]?.text)
        let module = directory.appendingPathComponent("fader-law.mjs")
        try law.write(to: module, atomically: true, encoding: .utf8)
        // Positions 0…1.05 (+12 dB is 1.05): 1,000 of them, each segment's ends among them.
        let script = """
            import { dbFromPosition, gainFromPosition, positionFromGain } from '\(module.path)';
            const points = [];
            for (let k = 0; k < 1000; k++) {
              const position = k * 1.05 / 999;
              const gain = gainFromPosition(position);
              points.push({ position, db: dbFromPosition(position), gain, back: positionFromGain(gain) });
            }
            console.log(JSON.stringify(points));
            """
        let node = Process()
        node.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        node.arguments = ["node", "--input-type=module", "-e", script]
        let output = Pipe()
        node.standardOutput = output
        try node.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        node.waitUntilExit()
        try #require(node.terminationStatus == 0, "node failed (is nodejs installed? scripts/setup installs it)")
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
