/// Where a fade from unity to silence began, found in the recorded audio
/// itself (the machine is shared: a time stamp taken when the message was
/// sent can be off by tens of milliseconds when the JACK clock runs late).
enum FadeMeasurement {
    typealias A = SignalAnalysis

    /// A sine's amplitude in 240-sample windows, every 48 samples: (centre, amplitude).
    static func envelope(_ signal: [Float], frequency: Double) -> [(Int, Float)] {
        stride(from: 0, to: signal.count - 240, by: 48).map { start in
            (start + 120, A.fitSine(signal, frequency: frequency, sampleRate: 48_000, in: start..<(start + 240)).amplitude)
        }
    }

    /// The first sample at which the envelope falls below `decibels` relative
    /// to `amplitude`, interpolated between windows.
    static func crossing(_ envelope: [(Int, Float)], below decibels: Float, of amplitude: Float) -> Int? {
        let level = amplitude * A.linear(decibels: decibels)
        for index in envelope.indices.dropFirst() where envelope[index].1 < level && envelope[index - 1].1 >= level {
            let (x0, y0) = envelope[index - 1], (x1, y1) = envelope[index]
            return x0 + Int(Float(x1 - x0) * (y0 - level) / (y0 - y1))
        }
        return nil
    }

    /// For a 2 s fade from unity to silence by the fader law (position 0.75 →
    /// 0 evenly): the level is −15·t dB for the first 2/3 s, so it crosses
    /// −6 dB 0.4 s after the start. Returns the start, and the level at 1 s
    /// after it (which the law puts at −20 dB).
    static func twoSecondFade(_ signal: [Float], frequency: Double, amplitude: Float) -> (start: Int, levelAtHalfTime: Float)? {
        let env = envelope(signal, frequency: frequency)
        guard let minus6 = crossing(env, below: -6, of: amplitude) else { return nil }
        let start = minus6 - 19_200
        let half = start + 48_000
        guard half - 240 >= 0, half + 240 <= signal.count else { return nil }
        let level = A.fitSine(signal, frequency: frequency, sampleRate: 48_000, in: (half - 240)..<(half + 240)).amplitude
        return (start, A.decibels(level / amplitude))
    }
}
