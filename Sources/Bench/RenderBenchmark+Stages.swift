import MixCore
import SceneModel

extension RenderBenchmark {
    /// An EQ with everything on: a 24 dB/octave low cut at 80 Hz, a high
    /// cut at 16 kHz (outputs), and every band at a few dB, so that no
    /// section passes its input through.
    static func busyEQ(bands: Int, highCut: Bool) -> Equaliser {
        var eq = Equaliser(bands: bands)
        eq.lowCut.on = true
        if highCut { (eq.highCut.on, eq.highCut.frequency) = (true, 16_000) }
        for b in eq.bands.indices { (eq.bands[b].on, eq.bands[b].gain) = (true, b % 2 == 0 ? 3 : -4) }
        return eq
    }

    /// Whether `--ramping` moves a block of this role: every gain, pan and
    /// link; not a delay (its own crossfade), nor a stage's setting.
    static func ramps(_ role: RampBlock.Role) -> Bool {
        switch role {
        case .delay, .eq, .limiter: false
        default: true
        }
    }
}
