import Testing

/// How the PipeWire test places what it recorded: each output's period is
/// attributed to a cycle by its own content, and `pw-link`'s listing read.
extension Integration.PipeWireTests {
    @Test("A recorded period is attributed to its cycle by its own content")
    func attribution() {
        let rate = 48_000, frame: UInt32 = 100_000
        let sine = Self.signals[0], code = Self.signals[1]
        func period(_ signal: JackTap.Signal, at start: UInt32, gain: Float = 1) -> ArraySlice<Float> {
            ArraySlice((0..<Self.periodSize).map { gain * Float(signal.expected(frameTime: start &+ UInt32($0), sampleRate: rate)) })
        }
        #expect(Self.attribute(period(sine, at: frame), to: frame, as: sine, sampleRate: rate) == .thisCycle)
        #expect(Self.attribute(period(sine, at: frame, gain: 0.5), to: frame, as: sine, sampleRate: rate) == .thisCycle)
        #expect(Self.attribute(period(sine, at: frame - 64, gain: 0.5), to: frame, as: sine, sampleRate: rate)
                == .otherCycle(periods: -1))
        #expect(Self.attribute(period(sine, at: frame + 64), to: frame, as: sine, sampleRate: rate) == .otherCycle(periods: 1))
        // 192 frames are four cycles of 1 kHz: the same samples.
        #expect(Self.attribute(period(sine, at: frame - 192), to: frame, as: sine, sampleRate: rate) == .thisCycle)
        #expect(Self.attribute(period(sine, at: frame, gain: 0.7), to: frame, as: sine, sampleRate: rate) == .unknown)
        #expect(Self.attribute(ArraySlice(repeating: 0, count: 64), to: frame, as: sine, sampleRate: rate) == .silent)

        #expect(Self.attribute(period(code, at: frame), to: frame, as: code, sampleRate: rate) == .thisCycle)
        #expect(Self.attribute(period(code, at: frame + 64), to: frame, as: code, sampleRate: rate) == .otherCycle(periods: 1))
        #expect(Self.attribute(period(code, at: frame + 1), to: frame, as: code, sampleRate: rate) == .unknown)
        var cut = period(code, at: frame)
        for index in cut.indices.dropFirst(10) { cut[index] *= Float(64 - index) / 64 }
        #expect(Self.attribute(cut, to: frame, as: code, sampleRate: rate) == .thisCycle)
        #expect(Self.attribute(period(code, at: frame, gain: 0.9), to: frame, as: code, sampleRate: rate) == .unknown)
        // Every frame of the code reads back, in Float, within the take and across its wrap.
        for start: UInt32 in [0, frame, UInt32(JackTap.Signal.codeModulus) - 32] {
            let decoded = JackTap.decodeFrameCode(Array(period(code, at: start)), amplitude: 0.5)
            #expect(decoded == (0..<64).map { (Int(start) + $0) % JackTap.Signal.codeModulus })
        }
    }

    /// Which cycle an output's period came from, by its own content.
    enum Attribution: Equatable {
        /// The cycle it was placed at.
        case thisCycle
        /// All zeros: the port held no data.
        case silent
        /// Exactly what this output carries in another cycle, `periods`
        /// periods away (for the sine, the nearest such cycle: it cannot
        /// tell cycles three periods apart).
        case otherCycle(periods: Int)
        /// Neither: judged by the checks as it is (a ramp, or a fault).
        case unknown
    }

    /// Attributes `samples`, one period of an output fed by `signal` (a sine
    /// at gain 1 or 0.5 when settled, or a code at gain 1 until cut), to the
    /// cycle of `frame` or to another one up to 16 periods away. A 1 kHz sine
    /// repeats every 48 frames, so a period three cycles away is the same
    /// sine: it counts as this cycle (and is this cycle's output wherever the
    /// gain is settled). A code identifies every frame.
    static func attribute(_ samples: ArraySlice<Float>, to frame: UInt32, as signal: JackTap.Signal,
                          sampleRate: Int) -> Attribution {
        if samples.allSatisfy({ $0 == 0 }) { return .silent }
        func carries(_ shift: Int) -> Bool {
            let start = frame &+ UInt32(bitPattern: Int32(shift))
            let gains: [Float]
            switch signal {
            case .sine: gains = [1, 0.5]
            // A cut period: the code until the cut, the ramp down after it.
            case .code, .dc: gains = [1]
            }
            return gains.contains { gain in
                let unchanged = samples.indices.prefix { index in
                    let expected = gain * Float(signal.expected(frameTime: start &+ UInt32(index - samples.startIndex),
                                                                sampleRate: sampleRate))
                    // A code step is 2^-21 (4.8e-7): codes must match exactly.
                    if case .sine = signal { return abs(samples[index] - expected) <= 1e-6 }
                    return samples[index] == expected
                }.count
                if case .sine = signal { return unchanged == samples.count }
                return unchanged > 0
            }
        }
        if carries(0) { return .thisCycle }
        for distance in 1...16 {
            for periods in [-distance, distance] where carries(periods * periodSize) {
                return .otherCycle(periods: periods)
            }
        }
        return .unknown
    }

    /// The links in `pw-link --links` output, as "OUT -> IN": it lists each
    /// port on a line of its own, followed by its links ("  |-> IN" for an
    /// output, "  |<- OUT" for an input).
    static func outputLinks(_ listing: String) -> Set<String> {
        var port = "", found: Set<String> = []
        for line in listing.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("|-> ") {
                found.insert("\(port) -> \(text.dropFirst(4))")
            } else if text.hasPrefix("|<- ") {
                found.insert("\(text.dropFirst(4)) -> \(port)")
            } else if !line.hasPrefix(" ") {
                port = text
            }
        }
        return found
    }
}
