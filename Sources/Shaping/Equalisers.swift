/// The EQ of every source, or of every output, on the audio thread: a low
/// cut (two sections), on outputs a high cut (two more), and the
/// parametric bands, each a trapezoidal SVF section (`SVFLanes`) run on
/// eight channels at once, a lane each. Its storage is made on the control
/// side for as many channels as the rig may ever have, so that a rig that
/// grows keeps each channel's filters where they are (`exchange`), and
/// freed there; `process` (Sources/StagePaths/Loops/Equalisers+Process.swift,
/// built once per CPU level: `StagePath`) is `@_noLocks`.
///
/// The settings come from the render kernel's ramps, as values per channel
/// (`Parameter`, in `order`): each period the stage reads where they are
/// now, and, if any moved, steps the sections' coefficients across the
/// period from the last period's settings to these, a block of 16 frames
/// at a time (`LaneCoefficients(shapes:…)` at each block's end). A group
/// of eight channels whose settings are still and flat (cuts off, every
/// band at 0 dB or off) is not run at all: its channels pass untouched,
/// bit for bit.
public struct Equalisers: ~Copyable {
    /// What the kernel hands the stage per channel, in this order: the
    /// bands on (0/1), the low cut's on, frequency (log2 Hz) and slope (12,
    /// 24), the high cut's likewise (outputs), then per band its shape
    /// (`BandShape.code`), frequency (log2 Hz), gain (dB), q (log2) and on.
    public enum Parameter: Int, Sendable {
        case on, lowCutOn, lowCutFrequency, lowCutSlope, highCutOn, highCutFrequency, highCutSlope
        case bandShape, bandFrequency, bandGain, bandQ, bandOn

    }

    /// Channels the storage holds (a multiple of 8), and groups of eight.
    public let channels: Int
    public let groups: Int
    public let bands: Int
    public let highCut: Bool
    /// Sections per channel: the low cut's two, the high cut's two, the bands.
    public let sections: Int
    /// Values per channel (`Parameter`).
    public let parameters: Int
    /// Frames a block of coefficients covers. (This and the places below
    /// are stored: the audio thread reads a stored property without a call.)
    public let block = 16
    /// Frames a block covers while nothing moves.
    public let stillBlock = 64
    /// The places of the values the audio thread reads by name (`index`).
    public let onIndex = 0, lowCutIndex = 1, highCutIndex = 4
    /// Values per band (`Parameter`'s last five).
    public let perBand = 5

    /// Per group and section: the filters' state and their coefficients now.
    public let state: UnsafeMutablePointer<SVFLanes>
    public let coefficients: UnsafeMutablePointer<LaneCoefficients>
    /// Per group and section: its coefficients now as a state-space system
    /// (`SVFStateSpace`), which a section runs while they hold still.
    public let still: UnsafeMutablePointer<SVFStateSpace>
    /// Per group and value: the settings the coefficients were last made for.
    public let settings: UnsafeMutablePointer<SIMD8<Float>>
    /// Per group and section: its coefficients pass the input through in
    /// every lane (a band off, a 12 dB cut's second section): while its
    /// group's settings are still, it is not run.
    public let passing: UnsafeMutablePointer<Bool>
    /// Per group: 1 while its settings are still and flat (not run), else 0;
    /// −1 before the first period (settings not yet read).
    public let flat: UnsafeMutablePointer<Int8>
    /// The sample rate the coefficients were made at.
    public var rate: Float = 0
    /// Every group was flat and still at the last period: nothing ran.
    public var quiet = false
    /// Whether the input may hold samples that are not numbers (the
    /// sources', straight from JACK): each such sample, or one outside
    /// 10⁻³⁰…10³⁰ in size, is taken as silence before the first section,
    /// as the mix cleans its sums, so that one bad sample is one silent
    /// sample of that source, not a state that is not a number to the end
    /// of the block (and every output the source feeds silent with it).
    public let cleansing: Bool
    /// One block of eight channels, transposed (a frame a vector).
    public let frames: UnsafeMutablePointer<SIMD8<Float>>
    /// Two groups' blocks side by side (a frame of sixteen channels a
    /// vector), for paths with registers of sixteen floats.
    public let wideFrames: UnsafeMutablePointer<SIMD16<Float>>
    /// A group's eight inputs (or a pair's sixteen), then from 16 its
    /// outputs, as the transposes into and out of `frames` and `wideFrames`
    /// take them.
    public let channelPointers: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>

    /// Where a lane without a channel (the last group's padding) reads
    /// silence and writes: `maxFrames` samples each.
    public let silence: UnsafeMutablePointer<Float>
    public let spare: UnsafeMutablePointer<Float>

    /// Control side: storage for `channels` channels with `bands` bands
    /// each, and a high cut if `highCut`, periods of up to `maxFrames`;
    /// `cleansing` where the input may not be numbers.
    public init(channels: Int, bands: Int, highCut: Bool, maxFrames: Int = 8192, cleansing: Bool = false) {
        self.cleansing = cleansing
        groups = max(1, (channels + 7) / 8)
        self.channels = groups * 8
        self.bands = bands
        self.highCut = highCut
        sections = (highCut ? 4 : 2) + bands
        parameters = (highCut ? 7 : 4) + bands * 5
        state = .allocate(capacity: groups * sections)
        state.initialize(repeating: SVFLanes(), count: groups * sections)
        coefficients = .allocate(capacity: groups * sections)
        coefficients.initialize(repeating: LaneCoefficients(repeating: .through), count: groups * sections)
        still = .allocate(capacity: groups * sections)
        still.initialize(repeating: SVFStateSpace(LaneCoefficients(repeating: .through)), count: groups * sections)
        settings = .allocate(capacity: groups * parameters)
        settings.initialize(repeating: SIMD8(), count: groups * parameters)
        passing = .allocate(capacity: groups * sections)
        passing.initialize(repeating: false, count: groups * sections)
        flat = .allocate(capacity: groups)
        flat.initialize(repeating: -1, count: groups)
        frames = .allocate(capacity: 64) // `stillBlock`
        frames.initialize(repeating: SIMD8(), count: 64)
        wideFrames = .allocate(capacity: 64) // `stillBlock`
        wideFrames.initialize(repeating: SIMD16(), count: 64)
        channelPointers = .allocate(capacity: 32)
        channelPointers.initialize(repeating: nil, count: 32)
        silence = .allocate(capacity: max(1, maxFrames))
        silence.initialize(repeating: 0, count: max(1, maxFrames))
        spare = .allocate(capacity: max(1, maxFrames))
        spare.initialize(repeating: 0, count: max(1, maxFrames))
    }

    deinit {
        state.deallocate()
        coefficients.deallocate()
        still.deallocate()
        settings.deallocate()
        flat.deallocate()
        passing.deallocate()
        frames.deallocate()
        wideFrames.deallocate()
        channelPointers.deallocate()
        silence.deallocate()
        spare.deallocate()
    }

    /// The place of a value among a channel's `parameters`: `band` 1-based
    /// for a band's values; nil for the high cut on a stage without one.
    public func index(_ parameter: Parameter, band: Int = 0) -> Int? {
        let cuts = highCut ? 7 : 4
        switch parameter {
        case .on, .lowCutOn, .lowCutFrequency, .lowCutSlope: return parameter.rawValue
        case .highCutOn, .highCutFrequency, .highCutSlope: return highCut ? parameter.rawValue : nil
        case .bandShape, .bandFrequency, .bandGain, .bandQ, .bandOn:
            guard band >= 1 && band <= bands else { return nil }
            return cuts + (band - 1) * 5 + parameter.rawValue - Parameter.bandShape.rawValue
        }
    }

    /// Whether a period at `sampleRate` in which no value moved would run
    /// nothing: every group was flat and still at the last one. The caller
    /// may then leave every channel as it is without calling `process`.
    @inlinable @_noLocks
    public func isQuiet(at sampleRate: Float) -> Bool { quiet && rate == sampleRate }

    /// Takes over `other`'s filters, coefficients and settings (a rig that
    /// changed size: `other` is the kernel's before), and gives it these.
    @inlinable @_noLocks
    public mutating func exchange(with other: inout Equalisers) {
        guard other.groups == groups && other.sections == sections && other.parameters == parameters else { return }
        for i in 0..<(groups * sections) {
            swap(&state[i], &other.state[i])
            swap(&coefficients[i], &other.coefficients[i])
            swap(&still[i], &other.still[i])
            swap(&passing[i], &other.passing[i])
        }
        for i in 0..<(groups * parameters) { swap(&settings[i], &other.settings[i]) }
        for g in 0..<groups { swap(&flat[g], &other.flat[g]) }
        swap(&rate, &other.rate)
        swap(&quiet, &other.quiet)
    }
}
