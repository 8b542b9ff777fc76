import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import Bench
import FoundationEssentials
import JSON
import MixCore
import SystemSupport

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time the render kernel offline (no JACK): microseconds per period, median and p99.",
        discussion: """
            The render kernel runs on the widest SIMD path the CPU has, or the one CROSSPOINT_SIMD forces \
            (sse2, avx2, avx512, neon; a path the CPU lacks is refused): the first line says which, and every \
            JSON object has it as "simd".

            Without --inputs/--outputs it runs the standard sweep: 8x8 … 256x256, each settled dense, ramping dense \
            and at 5% density. Times are per period of the real kernel (Mixer.process), median and 99th percentile, \
            with the cost of reading the clock (about 30 ns, printed as timer_overhead_us) subtracted.

            With --recall it times preset recalls instead (64x64 unless --inputs/--outputs say otherwise): the \
            controller's whole handling of /preset/recall (read the file, parse and check it, work out every \
            parameter that moves, hand the batch to the mixer's queue), on two presets A and B with every \
            crosspoint in use and every level different, recalled in turn: with the files unchanged since \
            their last recall (kept parsed in memory), and read afresh; and, of it, reading plus parsing \
            (PresetStore.load) and parsing alone; and the audio period that takes each recall: the whole \
            batch applied in that one period, and the period (64 frames) rendered.
            """)

    @OptionGroup var channels: ChannelCounts
    var inputs: Int? { channels.inputs }
    var outputs: Int? { channels.outputs }

    @Option(help: "Period size in frames.")
    var frames = 64

    @Option(help: "Sample rate, for the share of the period budget.")
    var rate = 48_000

    @Option(help: "Fraction of crosspoints in use, 0-1.")
    var density: Double = 1

    @Flag(help: "Every parameter ramping all the time (the worst case).")
    var ramping = false

    @Flag(help: "Level meters on, as while a client subscribes to them.")
    var meters = false

    @Flag(help: "Every pair of sources (1-2, 3-4, …) linked, at a balance of 0.3.")
    var linked = false

    @Flag(help: "8 DCAs and 8 mute groups in use: every source a member of one of each, the DCAs at -1 ... -8 dB.")
    var groups = false

    @Flag(help: "Every EQ on: each source's low cut and four bands, each output's low cut, high cut and six bands.")
    var eq = false

    @Flag(help: "Every output's limiter on, at -1 dBFS.")
    var limiters = false

    @Flag(help: "Two talkbacks talking at -6 dB (1 into outputs 3 and 5, 2 into 7 and 8; dims -20 dB), and output 1 in the listen.")
    var talk = false

    @Flag(help: "As --talk, with both talkbacks into every output.")
    var talkToAll = false

    @Flag(help: "Time preset recalls instead of the render kernel.")
    var recall = false

    @Option(help: "With --recall: recalls to time.")
    var trials = 1000

    @Option(help: "With --recall: the fade each recall names, in seconds.")
    var fade = 0.05

    @Option(help: "With --recall: write the presets A and B to this directory and leave them there.")
    var presets: String?

    @Option(help: "Seconds of rendering per configuration.")
    var seconds: Double = 1

    @Flag(help: "One JSON object per configuration, one per line.")
    var json = false

    func validate() throws {
        guard (1...8192).contains(frames) else { throw ValidationError("--frames must be 1-8192") }
        guard rate > 0, (0...1).contains(density), seconds > 0, seconds <= 600 else {
            throw ValidationError("--rate must be positive, --density 0-1, --seconds 0-600")
        }
        guard (1...1_000_000).contains(trials), (0...3600).contains(fade) else {
            throw ValidationError("--trials must be 1-1000000, --fade 0-3600")
        }
    }

    func run() throws {
        let simd: SIMDPath
        switch SIMDPath.fromEnvironment {
        case .success(let path): simd = path
        case .failure(let refusal):
            let line = Array("error: \(refusal)\n".utf8)
            _ = write(2, line, line.count)
            throw ExitCode.failure
        }
        if recall {
            try runRecall()
            return
        }
        var configurations: [RenderBenchmark.Configuration]
        if inputs != nil || outputs != nil {
            var c = RenderBenchmark.Configuration(inputs: inputs ?? outputs ?? 8, outputs: outputs ?? inputs ?? 8)
            c.density = density
            c.ramping = ramping
            configurations = [c]
        } else {
            configurations = RenderBenchmark.Configuration.sweep
        }
        for index in configurations.indices {
            configurations[index].frames = frames
            configurations[index].rate = rate
            configurations[index].seconds = seconds
            configurations[index].meters = meters
            configurations[index].linked = linked
            configurations[index].groups = groups
            configurations[index].eq = eq
            configurations[index].limiters = limiters
            configurations[index].talk = talk || talkToAll
            configurations[index].talkToAll = talkToAll
            configurations[index].simd = simd
        }
        if !json {
            print("# SIMD path: \(simd) (\(SIMDPath.chosenBecause(simd)))")
            print("inputs outputs frames density ramping  active  periods  median_us  p99_us  dsp_load_%")
        }
        for configuration in configurations {
            let r = RenderBenchmark(configuration).run()
            let c = r.configuration
            if json {
                let fields: [(String, String)] = [
                    ("inputs", "\(c.inputs)"), ("outputs", "\(c.outputs)"), ("frames", "\(c.frames)"),
                    ("rate", "\(c.rate)"), ("density", "\(c.density)"), ("ramping", "\(c.ramping)"),
                    ("meters", "\(c.meters)"), ("eq", "\(c.eq)"), ("limiters", "\(c.limiters)"),
                    ("talk", "\(c.talk)"), ("talk_to_all", "\(c.talkToAll)"), ("simd", "\"\(c.simd)\""),
                    ("us_per_period_median", cFormat("%.3f", r.microsecondsMedian)),
                    ("us_per_period_p99", cFormat("%.3f", r.microsecondsP99)),
                    ("dsp_load_percent", cFormat("%.4f", r.dspLoadPercent)),
                    ("active_crosspoints", "\(r.activeCrosspoints)"), ("periods", "\(r.periods)"),
                    ("timer_overhead_us", cFormat("%.3f", r.timerOverheadMicroseconds)),
                ]
                print(JSONWriter.inline(fields))
            } else {
                print(cFormat("%6d %7d %6d %7.2f %7s %7d %8d %10.2f %7.2f %11.3f",
                             c.inputs, c.outputs, c.frames, c.density, (c.ramping ? "yes" : "no" as StaticString).utf8Start,
                             r.activeCrosspoints, r.periods, r.microsecondsMedian, r.microsecondsP99, r.dspLoadPercent))
            }
        }
    }

    private func runRecall() throws {
        var c = RecallBenchmark.Configuration(inputs: inputs ?? outputs ?? 64, outputs: outputs ?? inputs ?? 64)
        c.trials = trials
        c.fade = fade
        c.presets = presets.map { URL(fileURLWithPath: $0) }
        let r = try RecallBenchmark(c).run()
        if json {
            let fields: [(String, String)] = [
                ("inputs", "\(c.inputs)"), ("outputs", "\(c.outputs)"), ("trials", "\(r.trials)"),
                ("fade", "\(c.fade)"), ("file_bytes", "\(r.fileBytes)"), ("changes", "\(r.changes)"),
                ("recall_us_median", cFormat("%.1f", r.recall.median)),
                ("recall_us_p99", cFormat("%.1f", r.recall.p99)),
                ("recall_first_read_us_median", cFormat("%.1f", r.recallFirstRead.median)),
                ("recall_first_read_us_p99", cFormat("%.1f", r.recallFirstRead.p99)),
                ("load_us_median", cFormat("%.1f", r.load.median)),
                ("load_us_p99", cFormat("%.1f", r.load.p99)),
                ("decode_us_median", cFormat("%.1f", r.decode.median)),
                ("decode_us_p99", cFormat("%.1f", r.decode.p99)),
                ("apply_period_us_median", cFormat("%.1f", r.applyPeriod.median)),
                ("apply_period_us_p99", cFormat("%.1f", r.applyPeriod.p99)),
            ]
            print(JSONWriter.inline(fields))
        } else {
            print("\(c.inputs)x\(c.outputs) preset (\(r.fileBytes) bytes), \(r.changes) parameters move per recall, \(r.trials) recalls")
            print("                                            median_us   p99_us")
            for (label, t) in [("recall, file unchanged (not re-read)", r.recall),
                               ("recall, file read (read, parse, prepare)", r.recallFirstRead),
                               ("  of it read + parse + check", r.load), ("  of it parse + check", r.decode),
                               ("audio period taking it (apply + render)", r.applyPeriod)] {
                print(label + String(repeating: " ", count: max(0, 42 - label.count)) + cFormat(" %10.1f %8.1f", t.median, t.p99))
            }
        }
    }
}
