/// The MIDI ports of the rig's surfaces as the audio thread and the control
/// side share them: per surface, by its place in `names`, a ring from its
/// input port to the control side (`incoming`) and one from the control
/// side to its output port (`outgoing`). Made once when the rig starts,
/// with the surfaces it was given, and freed with the rig.
public final class SurfaceWires: @unchecked Sendable {
    /// Each surface's name: its ports are `NAME_in` and `NAME_out`.
    public let names: [String]
    public let incoming: UnsafeMutablePointer<MIDIRing>
    public let outgoing: UnsafeMutablePointer<MIDIRing>

    public var count: Int { names.count }

    public init(names: [String], capacity: Int = 1 << 16) {
        self.names = names
        incoming = .allocate(capacity: max(1, names.count))
        outgoing = .allocate(capacity: max(1, names.count))
        for i in 0..<names.count {
            (incoming + i).initialize(to: MIDIRing(capacity: capacity))
            (outgoing + i).initialize(to: MIDIRing(capacity: capacity))
        }
    }

    deinit {
        for i in 0..<names.count {
            incoming[i].free()
            outgoing[i].free()
        }
        incoming.deinitialize(count: names.count)
        outgoing.deinitialize(count: names.count)
        incoming.deallocate()
        outgoing.deallocate()
    }
}
