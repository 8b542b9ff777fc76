import Catalogue
import FoundationEssentials
import Logging
import MixCore
import SceneModel
import OSC
import Presets
import RigControl
import SystemSupport

/// Times a preset recall the way `serve` handles one, without JACK: the
/// real `Controller.handle` of `/preset/recall NAME FADE`, which reads the
/// file, parses and checks it, fits it to the rig, works out every parameter
/// that moves and hands the batch to the mixer's queue. Two presets, A and B,
/// with every crosspoint in use and every level different between them (the
/// worst case: each recall moves every crosspoint, source and output), are
/// written with the real preset writer and recalled in turn. After each
/// recall the audio thread's side runs one period (`Mixer.process`, timed on
/// its own): it takes the whole batch, starts every ramp, and renders.
public struct RecallBenchmark: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var inputs: Int
        public var outputs: Int
        /// Recalls to time (alternately B and A).
        public var trials = 1000
        /// The fade each recall names, in seconds.
        public var fade = 0.05
        /// Where A and B are written and left; nil: a temporary directory,
        /// removed afterwards.
        public var presets: URL?

        public init(inputs: Int, outputs: Int) {
            self.inputs = inputs
            self.outputs = outputs
        }
    }

    /// Median and 99th percentile of one measure, in microseconds.
    public struct Timing: Sendable {
        public var median: Double
        public var p99: Double

        init(_ microseconds: [Double]) {
            let sorted = microseconds.sorted()
            median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
            p99 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        }
    }

    public struct Result: Sendable {
        public var configuration: Configuration
        public var trials: Int
        /// The whole recall: from the message to the changes in the queue
        /// (and the reply built), the file unchanged since its last recall
        /// (so not parsed again: `PresetCache`).
        public var recall: Timing
        /// The same with the file read and parsed, as at a preset's first
        /// recall or after it was edited.
        public var recallFirstRead: Timing
        /// Of it, reading the file, parsing and checking it (`PresetStore.load`).
        public var load: Timing
        /// Of that, parsing and checking alone, from bytes in memory.
        public var decode: Timing
        /// The audio period that takes a recall: every change applied (the
        /// whole batch, in that one period) and the period rendered.
        public var applyPeriod: Timing
        /// Parameters that move per recall.
        public var changes: Int
        /// Size of the preset file.
        public var fileBytes: Int
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static let names = (a: "A", b: "B")

    public let configuration: Configuration

    public init(_ configuration: Configuration) { self.configuration = configuration }

    /// A and B: every crosspoint in use with a gain from 0.1 to 1, and every
    /// source volume and pan and output volume set, all different between
    /// the two.
    public static func presets(inputs: Int, outputs: Int) -> (a: Preset, b: Preset) {
        var generator = SplitMix(seed: 0x9e5e7)
        func scene() -> Scene {
            var scene = Scene(inputs: inputs, outputs: outputs)
            for n in 1...inputs {
                scene.sources[n - 1].volume = Float(0.5 + generator.nextUnit())
                scene.sources[n - 1].pan = Float(generator.nextUnit() * 0.5 - 0.25)
                for m in 1...outputs { scene.crosspoints[n, m] = Float(0.1 + 0.9 * generator.nextUnit()) }
            }
            for m in 1...outputs { scene.outputs[m - 1].volume = Float(0.5 + generator.nextUnit()) }
            return scene
        }
        return (Preset(name: names.a, scene: scene()), Preset(name: names.b, scene: scene()))
    }

    public func run() throws(Failure) -> Result {
        let c = configuration
        let directory = c.presets ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("crosspoint-recall-bench-\(ProcessInfo.processInfo.processIdentifier)")
        defer { if c.presets == nil { try? FileManager.default.removeItem(at: directory) } }
        let store = PresetStore(directory: directory)
        let (a, b) = Self.presets(inputs: c.inputs, outputs: c.outputs)
        do {
            try store.save(a)
            try store.save(b)
        } catch {
            throw Failure(description: "\(error)")
        }
        guard let bytes = FileManager.default.contents(atPath: store.url(for: b.name).path) else {
            throw Failure(description: "cannot read \(store.url(for: b.name).path) back")
        }

        let mixer = Mixer(scene: a.scene, panLaw: .balance, layout: OutputLayout(outputs: c.outputs))
        mixer.setAttached(true) // this thread plays the audio thread
        let period = 64
        let silence = UnsafeMutablePointer<Float>.allocate(capacity: period)
        silence.initialize(repeating: 0, count: period)
        let outputBuffers = (0..<c.outputs).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: period) }
        let inputPointers = [UnsafePointer<Float>](repeating: UnsafePointer(silence), count: c.inputs)
        defer {
            silence.deallocate()
            outputBuffers.forEach { $0.deallocate() }
        }
        let logger = Logger(label: "recall-bench", factory: { _ in DiscardingLogHandler() })
        let controller = Controller(state: RigState(scene: a.scene, preset: a.name), mixer: mixer, store: store,
                                    smoothingSeconds: 0.02, logger: logger)
        guard let address = SocketAddress.resolve(host: "127.0.0.1", port: 9) else {
            throw Failure(description: "cannot make a loopback address")
        }
        let peer = OSCPeer(address: address)
        let clock = ContinuousClock()
        func microseconds(_ d: Duration) -> Double {
            Double(d.components.attoseconds) / 1e12 + Double(d.components.seconds) * 1e6
        }

        var recall: [Double] = [], recallFirstRead: [Double] = [], load: [Double] = [], decode: [Double] = []
        var applyPeriod: [Double] = []
        var changes = 0
        let warmUp = 10
        for firstRead in [false, true] {
            for trial in 0..<(warmUp + c.trials) {
                let name = trial % 2 == 0 ? b.name : a.name
                if firstRead { store.cache.forget(name) }
                let message = OSCMessage(Command.Name.presetRecall.address, [.string(name), .float(Float(c.fade))])
                let start = clock.now
                let replies = controller.handle(.message(message), from: peer)
                let elapsed = clock.now - start
                guard case .message(let reply)? = replies.first, reply.address == Reply.Name.presetRecalled.address else {
                    throw Failure(description: "the recall of \(name) failed: \(replies)")
                }
                changes = mixer.queuedChanges
                let applied = inputPointers.withUnsafeBufferPointer { ins in
                    outputBuffers.withUnsafeBufferPointer { outs in
                        clock.measure { mixer.process(inputs: ins.baseAddress!, outputs: outs.baseAddress!, frames: period) }
                    }
                }
                guard mixer.queuedChanges == 0 else {
                    throw Failure(description: "the recall did not land in one period: \(mixer.queuedChanges) changes left")
                }
                guard trial >= warmUp else { continue }
                applyPeriod.append(microseconds(applied))
                if firstRead { recallFirstRead.append(microseconds(elapsed)) } else { recall.append(microseconds(elapsed)) }
            }
        }
        for trial in 0..<(warmUp + c.trials) {
            var failure: String?
            store.cache.forget(b.name)
            let read = clock.measure {
                do { _ = try store.load(b.name) } catch { failure = "\(error)" }
            }
            let parsed = clock.measure {
                do { _ = try PresetCoding.decode(bytes, file: "B.json") } catch { failure = "\(error)" }
            }
            if let failure { throw Failure(description: failure) }
            if trial >= warmUp {
                load.append(microseconds(read))
                decode.append(microseconds(parsed))
            }
        }
        return Result(configuration: c, trials: c.trials, recall: Timing(recall),
                      recallFirstRead: Timing(recallFirstRead), load: Timing(load),
                      decode: Timing(decode), applyPeriod: Timing(applyPeriod), changes: changes,
                      fileBytes: bytes.count)
    }
}

/// Builds every log message the recall writes, as `serve` does at its default
/// level, and drops it: the benchmark pays for the message, not for the terminal.
private struct DiscardingLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        _ = event.message.description.utf8.count
    }
}
