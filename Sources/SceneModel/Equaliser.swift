/// A strip's EQ (docs/processing.md): a low cut, on outputs a high cut
/// too, and parametric bands. On a source it is part of the scene; on an
/// output, the rig's tuning (kept in the state file, never in presets).
public struct Equaliser: Equatable, Sendable {
    /// The whole EQ's bands on or off (`…/eq/on`); the cuts have their own.
    public var on = true
    /// The low cut (`…/hpf/…`): 80 Hz, 24 dB/octave, off.
    public var lowCut = Cut(frequency: 80)
    /// The high cut (`…/lpf/…`, outputs only): 20 kHz, 24 dB/octave, off.
    public var highCut = Cut(frequency: 20_000)
    public var bands: [EQBand]

    /// An EQ of `bands` bands, all off, at the rig's default frequencies:
    /// four at 100, 500, 2,000 and 8,000 Hz (band 1 a low shelf, the last a
    /// high shelf, the others peaks); six at 100, 250, 630, 1,600, 4,000
    /// and 10,000 Hz.
    public init(bands: Int) {
        let frequencies: [Float] = bands == 4 ? [100, 500, 2_000, 8_000] : [100, 250, 630, 1_600, 4_000, 10_000]
        self.bands = (0..<bands).map { b in
            EQBand(type: b == 0 ? .lowShelf : b == bands - 1 ? .highShelf : .peak,
                   frequency: b < frequencies.count ? frequencies[b] : 1_000)
        }
    }

    /// A Butterworth low or high cut.
    public struct Cut: Equatable, Sendable {
        public var on = false
        public var frequency: Float
        /// 12 or 24 dB per octave.
        public var slope: Float = 24

        public init(frequency: Float) { self.frequency = frequency }
    }
}

/// One parametric band (`…/eq/{b}/…`): its shape, frequency in Hz, gain in
/// dB and q; off by default, and flat at 0 dB.
public struct EQBand: Equatable, Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        case peak
        case lowShelf = "lowshelf"
        case highShelf = "highshelf"

        /// Its shape's number on the audio thread (`BandShape.code`).
        public var code: Float {
            switch self {
            case .peak: 0
            case .lowShelf: 1
            case .highShelf: 2
            }
        }
    }

    public var type: Kind
    public var frequency: Float
    public var gain: Float = 0
    public var q: Float = 1
    public var on = false

    public init(type: Kind, frequency: Float) {
        self.type = type
        self.frequency = frequency
    }
}
