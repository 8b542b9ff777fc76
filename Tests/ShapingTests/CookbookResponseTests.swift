import Foundation
import Shaping
import Testing

/// Each band's magnitude response, measured: an impulse through the running
/// filter (eight settings at once, a lane each), its DFT at every
/// third-octave from 20 Hz to 20 kHz, within 0.1 dB of the Audio EQ
/// Cookbook's formula, at 44.1, 48 and 96 kHz (issue 36).
@Suite struct CookbookResponseTests {
    static let rates = [44_100.0, 48_000, 96_000]

    static let bands: [Band] = [
        Band(.peak, frequency: 100, gain: 12, q: 1),
        Band(.peak, frequency: 1000, gain: -15, q: 4),
        Band(.peak, frequency: 5000, gain: 15, q: 16),
        Band(.lowShelf, frequency: 200, gain: 9, q: 0.707),
        Band(.lowShelf, frequency: 80, gain: -12, q: 1.5),
        Band(.highShelf, frequency: 8000, gain: 6, q: 0.707),
        Band(.highShelf, frequency: 3000, gain: -15, q: 0.3),
        Band(.peak, frequency: 15000, gain: 6, q: 2),
    ]

    static let passes: [Band] = [
        Band(.highPass, frequency: 80, q: 0.707), Band(.highPass, frequency: 500, q: 8),
        Band(.highPass, frequency: 20, q: 0.5), Band(.lowPass, frequency: 1000, q: 2),
        Band(.lowPass, frequency: 20000, q: 0.707), Band(.lowPass, frequency: 300, q: 0.3),
        Band(.peak, frequency: 20, gain: -15, q: 0.3), Band(.peak, frequency: 40, gain: 15, q: 0.5),
    ]

    @Test(arguments: rates, [bands, passes])
    func everyBandIsTheCookbooks(sampleRate: Double, bands: [Band]) {
        let responses = Measuring.impulseResponses(bands.map { [$0] }, sampleRate: sampleRate, length: Int(sampleRate))
        for (band, response) in zip(bands, responses) {
            let cookbook = Cookbook.biquad(band, sampleRate: sampleRate)
            var worst = (frequency: 0.0, error: 0.0)
            for f in Cookbook.thirdOctaves(below: Band.highestFrequency * sampleRate) {
                let expected = cookbook.magnitude(at: f, sampleRate: sampleRate)
                guard expected > -80 else { continue } // below what Float resolves
                let error = abs(Measuring.magnitude(response, at: f, sampleRate: sampleRate) - expected)
                if error > worst.error { worst = (f, error) }
            }
            #expect(worst.error < 0.1, "\(band) at \(sampleRate) Hz: \(worst.error) dB off at \(worst.frequency) Hz")
        }
    }

    /// The cuts are Butterworth: a low cut at 80 Hz, 24 dB/octave, and the
    /// others, within 0.1 dB of the Butterworth magnitude.
    @Test(arguments: rates)
    func theCutsAreButterworth(sampleRate: Double) {
        let cuts: [(BandShape, Double, Band.Slope)] = [
            (.highPass, 80, .twentyFour), (.highPass, 80, .twelve), (.highPass, 1000, .twentyFour),
            (.highPass, 20, .twentyFour), (.lowPass, 20000, .twentyFour), (.lowPass, 1000, .twentyFour),
            (.lowPass, 5000, .twelve), (.lowPass, 10000, .twentyFour),
        ]
        let chains = cuts.map { Band.cut($0.0, frequency: $0.1, slope: $0.2) }
        let responses = Measuring.impulseResponses(chains, sampleRate: sampleRate, length: Int(sampleRate))
        for (cut, response) in zip(cuts, responses) {
            var worst = (frequency: 0.0, error: 0.0)
            for f in Cookbook.thirdOctaves(below: Band.highestFrequency * sampleRate) {
                let expected = Cookbook.butterworth(at: f, cutoff: cut.1, order: cut.2.order, highPass: cut.0 == .highPass,
                                                    sampleRate: sampleRate)
                guard expected > -80 else { continue }
                let error = abs(Measuring.magnitude(response, at: f, sampleRate: sampleRate) - expected)
                if error > worst.error { worst = (f, error) }
            }
            #expect(worst.error < 0.1, "\(cut) at \(sampleRate) Hz: \(worst.error) dB off at \(worst.frequency) Hz")
        }
    }

    /// The 24 dB/octave cut falls 24 dB an octave (a check on the test: two
    /// octaves below 1 kHz, at 250 Hz, it is about 48 dB down).
    @Test func aTwentyFourDecibelCutFallsTwentyFourDecibelsAnOctave() {
        let response = Measuring.impulseResponses([Band.cut(.highPass, frequency: 1000, slope: .twentyFour)],
                                                  sampleRate: 48_000, length: 48_000)[0]
        let down = Measuring.magnitude(response, at: 250, sampleRate: 48_000)
        #expect(abs(down + 48.2) < 0.5, "\(down) dB at 250 Hz")
        #expect(abs(Measuring.magnitude(response, at: 1000, sampleRate: 48_000) + 3.01) < 0.01, "−3 dB at the cutoff")
    }
}
