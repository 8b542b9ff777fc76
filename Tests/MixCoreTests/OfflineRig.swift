import Foundation
import Catalogue
import MixCore
import SceneModel

/// Renders a `Mixer` offline, period by period, the way JACK would call it:
/// each input plays a signal, each output is collected.
final class OfflineRig {
    let mixer: Mixer
    let frames: Int
    let sampleRate: Int
    var signals: [(Int) -> Float]
    private(set) var recorded: [[Float]]
    private var clock = 0

    init(inputs: Int, outputs: Int, frames: Int = 64, sampleRate: Int = 48_000,
         panLaw: PanLaw = .balance, monoOutputs: Set<Int> = [], scene: Scene? = nil,
         queueCapacity: Int = 16_384, simd: SIMDPath = .inUse) {
        let scene = scene ?? Scene(inputs: inputs, outputs: outputs)
        mixer = Mixer(scene: scene, panLaw: panLaw,
                      layout: OutputLayout(outputs: outputs, monoOutputs: monoOutputs),
                      queueCapacity: queueCapacity, simd: simd)
        mixer.setSampleRate(sampleRate)
        self.frames = frames
        self.sampleRate = sampleRate
        signals = Array(repeating: { _ in 0 }, count: inputs)
        recorded = Array(repeating: [], count: outputs)
    }

    /// A sine on input n (1-based) at the given amplitude.
    func playSine(input n: Int, frequency: Float = 1000, amplitude: Float = 1) {
        let rate = Float(sampleRate)
        signals[n - 1] = { t in amplitude * sinf(2 * .pi * frequency * Float(t) / rate) }
    }

    func playConstant(input n: Int, _ value: Float) { signals[n - 1] = { _ in value } }

    func submit(_ changes: [Change]) { mixer.submit(changes) }

    /// Renders whole periods covering at least `seconds`.
    @discardableResult
    func render(seconds: Double) -> Int {
        let periods = Int((seconds * Double(sampleRate) / Double(frames)).rounded(.up))
        render(periods: periods)
        return periods
    }

    func render(periods: Int) {
        let inputs = signals.count, outputs = recorded.count
        let inBuffers = (0..<inputs).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: frames) }
        let outBuffers = (0..<outputs).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: frames) }
        defer { (inBuffers + outBuffers).forEach { $0.deallocate() } }
        let inPointers = inBuffers.map { UnsafePointer($0) }
        for _ in 0..<periods {
            for n in 0..<inputs {
                for k in 0..<frames { inBuffers[n][k] = signals[n](clock + k) }
            }
            inPointers.withUnsafeBufferPointer { ins in
                outBuffers.withUnsafeBufferPointer { outs in
                    mixer.process(inputs: ins.baseAddress!, outputs: outs.baseAddress!, frames: frames)
                }
            }
            for m in 0..<outputs { recorded[m].append(contentsOf: UnsafeBufferPointer(start: outBuffers[m], count: frames)) }
            clock += frames
        }
    }

    var elapsedFrames: Int { clock }

    /// RMS of output m over the sample range.
    func rms(output m: Int, _ range: Range<Int>) -> Float {
        let slice = recorded[m - 1][range]
        return (slice.reduce(0) { $0 + $1 * $1 } / Float(slice.count)).squareRoot()
    }

    /// Largest sample-to-sample step on output m.
    func largestStep(output m: Int) -> Float {
        let samples = recorded[m - 1]
        return zip(samples.dropFirst(), samples).map { abs($0 - $1) }.max() ?? 0
    }
}

/// The click criterion: each sample's third difference, which a cut or a
/// kink shows even at a zero crossing (a clean sine's is its amplitude
/// times (2πf/fs)³).
func thirdDifferences(of samples: [Float]) -> [Float] {
    guard samples.count > 3 else { return [] }
    return (3..<samples.count).map { k in abs(samples[k] - 3 * samples[k - 1] + 3 * samples[k - 2] - samples[k - 3]) }
}
