/// What a band does to the spectrum: the Audio EQ Cookbook's shapes
/// (Robert Bristow-Johnson). `peak` and the shelves lift or cut by a gain
/// around or beyond their frequency; the passes cut below (`highPass`, a
/// low cut) or above (`lowPass`) it.
public enum BandShape: String, Sendable, CaseIterable {
    case peak
    case lowShelf = "lowshelf"
    case highShelf = "highshelf"
    case highPass = "highpass"
    case lowPass = "lowpass"

    /// Its number on the audio thread, where eight lanes' shapes are a SIMD
    /// vector (`LaneCoefficients(shapes:…)`).
    @inlinable public var code: Int32 {
        switch self {
        case .peak: 0
        case .lowShelf: 1
        case .highShelf: 2
        case .highPass: 3
        case .lowPass: 4
        }
    }
}
