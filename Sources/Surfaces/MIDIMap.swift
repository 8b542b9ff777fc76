/// A MIDI controller's bindings, one per control (`MIDIMap+File.swift`
/// reads them from the map file).
public struct MIDIMap: Sendable {
    public let bindings: [MIDIBinding]
    let byControl: [MIDIControl: Int]

    public init(_ bindings: [MIDIBinding]) {
        self.bindings = bindings
        var index: [MIDIControl: Int] = [:]
        for (i, binding) in bindings.enumerated() { index[binding.control] = i }
        byControl = index
    }

    /// The binding of `control`, if it has one.
    public func binding(_ control: MIDIControl) -> MIDIBinding? {
        byControl[control].map { bindings[$0] }
    }
}
