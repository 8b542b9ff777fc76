import Catalogue
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

    /// `scene` with two talkbacks talking at −6 dB, dimming the rest of
    /// what their destinations carry by 20 dB, and output 1 in the listen
    /// (AFL). Talkback 1 talks into outputs 3 and 5 (the issue's own test),
    /// talkback 2 into 7 and 8 (those the rig has); `toAll`: both into every
    /// output, the engineer's "talk to all".
    static func talkScene(_ scene: Scene, toAll: Bool) -> Scene {
        var scene = scene
        var bank = Bank(count: 2, blank: Catalogue().blank(.talkback))
        for t in 1...2 {
            bank.set(t, "talk", .toggle(true))
            bank.set(t, "volume", .number(FaderLaw.gain(decibels: -6)))
            let destinations = toAll ? Array(1...scene.outputCount) : t == 1 ? [3, 5] : [7, 8]
            for m in destinations where m <= scene.outputCount { bank.set(t, "output/\(m)", .toggle(true)) }
        }
        scene.banks[Parameter.Strip.talkback.name] = bank
        scene.outputs[0].listen = true
        return scene
    }

    /// Whether `--ramping` moves a block of this role: every gain, pan and
    /// link; not a delay (its own crossfade), nor a stage's setting (EQ,
    /// limiter, a talkback's sends, the listen's shares: ramping those
    /// would talk into every output and listen to everything, which
    /// `--talk-to-all` times on its own).
    static func ramps(_ role: RampBlock.Role) -> Bool {
        switch role {
        case .delay, .eq, .limiter, .talk, .listen, .listenMix: false
        default: true
        }
    }
}
