/// A whole routing scene: every source, crosspoint, output and master
/// setting. The control side keeps the live one; presets are stored ones.
public struct Scene: Equatable, Sendable {
    public var sources: [Source]
    public var crosspoints: CrosspointMatrix
    public var outputs: [Output]
    public var master = Master()

    public var inputCount: Int { sources.count }
    public var outputCount: Int { outputs.count }

    /// The default scene: identity routing, unity everywhere, pans centred,
    /// nothing muted or soloed.
    public init(inputs: Int, outputs: Int) {
        sources = (0..<inputs).map { Source(name: "in_\($0 + 1)") }
        crosspoints = .identity(inputs: inputs, outputs: outputs)
        self.outputs = (0..<outputs).map { Output(name: "out_\($0 + 1)") }
    }

    /// True while any source is soloed: then only soloed sources are heard.
    public var anySolo: Bool { sources.contains { $0.solo } }

    /// Whether source n (1-based) is silenced by another source's solo.
    public func isSilencedBySolo(_ n: Int) -> Bool {
        anySolo && !sources[n - 1].solo
    }
}
