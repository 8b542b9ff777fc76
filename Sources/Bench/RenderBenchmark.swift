import Catalogue
import MixCore
import SceneModel
import SystemSupport

/// Renders the real mixer offline, period after period, and times each
/// period: the same `Mixer.process` the JACK callback calls, on inputs that
/// are not silent, with outputs that are read so nothing is optimised away.
public struct RenderBenchmark: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var inputs: Int
        public var outputs: Int
        public var frames = 64
        public var rate = 48_000
        /// Fraction of crosspoints in use (non-zero).
        public var density: Double = 1
        /// Every parameter ramping all the time: the worst case.
        public var ramping = false
        /// Level meters on, as while a client subscribes to them.
        public var meters = false
        /// Every pair of sources (1-2, 3-4, …) linked, at a balance of 0.3.
        public var linked = false
        /// 8 DCAs and 8 mute groups in use: every source a member of one
        /// of each, the DCAs at −1 … −8 dB, the groups unmuted.
        public var groups = false
        /// Every EQ on (issue 36): each source's low cut and four bands,
        /// each output's low cut, high cut and six bands.
        public var eq = false
        /// Every output's limiter on, at −1 dBFS.
        public var limiters = false
        /// Two talkbacks talking (issue 37), each into two outputs at −6 dB,
        /// dimming the rest by 20 dB, and output 1 in the listen (AFL):
        /// `talkScene`.
        public var talk = false
        /// With `talk`: both talkbacks into every output.
        public var talkToAll = false
        /// Wall-clock time to spend rendering.
        public var seconds: Double = 1
        /// The build of the mixing loops to time (one the CPU has).
        public var simd: SIMDPath = .inUse

        public init(inputs: Int, outputs: Int) {
            self.inputs = inputs
            self.outputs = outputs
        }

        /// The standard sweep: each size settled dense, ramping dense, and at 5% density.
        public static var sweep: [Configuration] {
            [8, 32, 64, 128, 256].flatMap { size -> [Configuration] in
                var settled = Configuration(inputs: size, outputs: size)
                settled.seconds = 1
                var ramping = settled
                ramping.ramping = true
                var sparse = settled
                sparse.density = 0.05
                return [settled, ramping, sparse]
            }
        }
    }

    public struct Result: Sendable {
        public var configuration: Configuration
        public var periods: Int
        public var microsecondsMedian: Double
        public var microsecondsP99: Double
        /// Share of the period budget (frames / rate) the median takes, in percent.
        public var dspLoadPercent: Double
        /// Crosspoints in use.
        public var activeCrosspoints: Int
        /// Sum of the last period's output, so the work cannot be skipped.
        public var checksum: Float
        /// What reading the clock around an empty closure costs (median),
        /// already subtracted from every timing above.
        public var timerOverheadMicroseconds: Double
    }

    public let configuration: Configuration

    public init(_ configuration: Configuration) { self.configuration = configuration }

    public func run() -> Result {
        let c = configuration
        var generator = SplitMix(seed: 0x5eed)
        var scene = Scene(inputs: c.inputs, outputs: c.outputs, dcas: c.groups ? 8 : 0, muteGroups: c.groups ? 8 : 0)
        if c.groups {
            for g in 1...8 { scene.dcas[g - 1].volume = FaderLaw.gain(position: FaderLaw.position(decibels: -Float(g))) }
            for n in scene.sources.indices {
                scene.sources[n].dcas.insert(n % 8 + 1)
                scene.sources[n].muteGroups.insert((n + 3) % 8 + 1)
            }
        }
        var active = 0
        for n in 1...c.inputs {
            for m in 1...c.outputs {
                let used = c.density >= 1 || generator.nextUnit() < c.density
                scene.crosspoints[n, m] = used ? Float(0.1 + 0.9 * generator.nextUnit()) : 0
                if used { active += 1 }
            }
        }
        if c.linked {
            for k in stride(from: 0, to: c.inputs - 1, by: 2) {
                for member in [k, k + 1] { (scene.sources[member].link, scene.sources[member].pan) = (true, 0.3) }
            }
        }
        if c.eq {
            for n in scene.sources.indices { scene.sources[n].eq = Self.busyEQ(bands: 4, highCut: false) }
            for m in scene.outputs.indices { scene.outputs[m].eq = Self.busyEQ(bands: 6, highCut: true) }
        }
        if c.limiters { for m in scene.outputs.indices { scene.outputs[m].limiter.on = true } }
        if c.talk { scene = Self.talkScene(scene, toAll: c.talkToAll) }
        let mixer = Mixer(scene: scene, panLaw: .constantPower, layout: OutputLayout(outputs: c.outputs),
                          maxFrames: max(c.frames, 64), simd: c.simd)
        mixer.setSampleRate(c.rate)
        mixer.meters.setEnabled(c.meters)

        // 32-byte aligned buffers, as JACK2 gives its port buffers (checked
        // with jack_port_get_buffer on this machine: addresses are multiples of 32).
        func buffer() -> UnsafeMutablePointer<Float> {
            UnsafeMutableRawPointer.allocate(byteCount: c.frames * 4, alignment: 32)
                .initializeMemory(as: Float.self, repeating: 0, count: c.frames)
        }
        let inputs = (0..<c.inputs).map { _ in buffer() }
        let outputs = (0..<c.outputs).map { _ in buffer() }
        defer { (inputs + outputs).forEach { UnsafeMutableRawPointer($0).deallocate() } }
        for buffer in inputs {
            for k in 0..<c.frames { buffer[k] = Float(generator.nextUnit() * 2 - 1) * 0.5 }
        }
        let inputPointers = inputs.map { UnsafePointer($0) }
        // The talkbacks' inputs and the listen's ports (`talk`): none otherwise.
        let talks = (0..<(c.talk ? 2 : 0)).map { _ in buffer() }
        let listen = (0..<(c.talk ? 2 : 0)).map { _ in buffer() }
        defer { (talks + listen).forEach { UnsafeMutableRawPointer($0).deallocate() } }
        for buffer in talks {
            for k in 0..<c.frames { buffer[k] = Float(generator.nextUnit() * 2 - 1) * 0.5 }
        }
        let talkPointers: [UnsafePointer<Float>?] = talks.map { UnsafePointer($0) }
        let listenPointers: [UnsafeMutablePointer<Float>?] = listen

        // Ramping: every parameter heads somewhere new over an hour of audio,
        // longer than any run, so every period moves all of them: every
        // crosspoint in use, every source's volume and pan, every output's
        // volume, the master volume, and the mute and solo gates (which head
        // for the value they have, so the audio stays audible).
        if c.ramping {
            let ramps = mixer.rampLayout
            let heading: [RampBlock.Strip: Float] = [.source: 0.5, .output: 0.7, .master: 0.9]
            var changes: [Change] = []
            // (The stages' settings stay as they are: `eq` and `limiters` time those.)
            for (index, block) in ramps.blocks.enumerated() where Self.ramps(block.role) {
                let places = block.strip == .source ? c.inputs : block.strip == .output ? c.outputs : 1
                for channel in 1...places {
                    let slot = Int32(ramps.slot(block: index, channel: channel))
                    let to: Float = block.shape == .fader ? heading[block.strip] ?? 1 : block.role == .pan ? 0.3 : 1
                    changes.append(Change(ramp: slot, position: block.shape == .fader ? FaderLaw.position(gain: to) : to,
                                          value: to, seconds: 3600))
                }
            }
            for n in 1...c.inputs {
                for m in 1...c.outputs where scene.crosspoints[n, m] != 0 {
                    changes.append(Change(ramp: Int32(ramps.crosspoint(n, m)), position: FaderLaw.position(gain: 0.5),
                                          value: 0.5, seconds: 3600))
                }
            }
            mixer.submit(changes)
        }

        var timings: [Double] = []
        timings.reserveCapacity(1 << 20)
        let clock = ContinuousClock()
        func microseconds(_ d: Duration) -> Double {
            Double(d.components.attoseconds) / 1e12 + Double(d.components.seconds) * 1e6
        }
        // The cost of the measurement itself (two clock reads, ~30 ns here),
        // subtracted from each period's time below.
        var empty: [Double] = []
        for _ in 0..<20_000 { empty.append(microseconds(clock.measure {})) }
        empty.sort()
        let overhead = empty[empty.count / 2]
        let end = clock.now + .milliseconds(Int(c.seconds * 1000))
        var checksum: Float = 0
        inputPointers.withUnsafeBufferPointer { ins in
            outputs.withUnsafeBufferPointer { outs in
                talkPointers.withUnsafeBufferPointer { talk in
                    listenPointers.withUnsafeBufferPointer { listen in
                        guard let ins = ins.baseAddress, let outs = outs.baseAddress else { return }
                        // Without `talk`, what the rig with neither talkbacks nor listen ports renders.
                        let talks = c.talk ? talk.baseAddress : nil
                        let listens = c.talk ? listen.baseAddress : nil
                        func period() {
                            _ = mixer.begin(frames: c.frames)
                            mixer.render(inputs: ins, outputs: outs, directs: nil, talks: talks, talkCount: talk.count,
                                         listen: listens, frames: c.frames)
                        }
                        // Warm up: settle a fresh scene's first gains, fill the caches.
                        for _ in 0..<64 { period() }
                        while clock.now < end {
                            let elapsed = clock.measure { period() }
                            timings.append(max(0, microseconds(elapsed) - overhead))
                        }
                        for m in 0..<c.outputs { checksum += outs[m][c.frames - 1] }
                        for side in listen { checksum += side?[c.frames - 1] ?? 0 }
                    }
                }
            }
        }
        timings.sort()
        let median = timings.isEmpty ? 0 : timings[timings.count / 2]
        let p99 = timings.isEmpty ? 0 : timings[min(timings.count - 1, Int(Double(timings.count) * 0.99))]
        let budget = Double(c.frames) / Double(c.rate) * 1e6
        return Result(configuration: c, periods: timings.count, microsecondsMedian: median, microsecondsP99: p99,
                      dspLoadPercent: median / budget * 100, activeCrosspoints: active, checksum: checksum,
                      timerOverheadMicroseconds: overhead)
    }
}
