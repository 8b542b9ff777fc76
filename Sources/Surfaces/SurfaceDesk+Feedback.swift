import Catalogue
import MIDI
import OSC
import Synchronization

/// What a MIDI controller is sent (docs/surfaces.md, "Feedback to the
/// controller"): each surface is subscribed to the rig's feedback as any
/// client is, so it gets the full state at start and every change since,
/// paced by the feedback thread as fast as its ring takes them
/// (`room(for:)`). Of each packet, the values at a binding's address
/// become MIDI on `NAME_out` (`MIDIBinding.message(showing:)`): faders'
/// and knobs' positions, switches' LEDs. Its own moves are not echoed back.
extension SurfaceDesk {
    /// Surfaces whose hardware came (back): each is subscribed again, so
    /// it is sent the full state (faders, LEDs), then changes, within
    /// `refreshDelay`. Not at once: JACK's process graph takes a new
    /// connection at a later cycle than `jack_connect` returns, and MIDI
    /// written to the port before then reaches nobody (a clean CI run
    /// caught a controller that came and was sent nothing).
    public func refresh(_ places: [Int]) {
        let due = ContinuousClock.now + Self.refreshDelay
        refreshes.withLock { refreshes in
            for s in places where s < wires.count { refreshes[s] = due }
        }
    }

    /// Several periods of the longest JACK runs at (2048 frames at 44.1 kHz
    /// is 46 ms), and too short for a hand on a fader to notice.
    static let refreshDelay = Duration.milliseconds(100)

    /// The surfaces whose refresh has fallen due, taken.
    func dueRefreshes() -> [Int] {
        let now = ContinuousClock.now
        return refreshes.withLock { refreshes in
            let due = refreshes.filter { $0.value <= now }.keys.sorted()
            for s in due { refreshes[s] = nil }
            return due
        }
    }

    /// Subscribes surface `s` to feedback, if it is let in (`peer(_:)`).
    func subscribe(_ s: Int) {
        let peer = peer(s)
        guard peer.access != .denied else { return }
        _ = controller.handle(.message(OSCMessage(Command.Name.subscribe.rawValue)), from: peer)
    }

    /// A packet for surface `name`, from any thread that delivers to
    /// clients; false if there is no such surface.
    public func deliver(_ packet: OSCPacket, to name: String) -> Bool {
        guard let s = wires.names.firstIndex(of: name) else { return false }
        if mackieUnits[s] != nil {
            showMackie(packet)
            return true
        }
        let bindings = feedback.withLock { $0[s] }
        let events = packet.messages.flatMap { message -> [[UInt8]] in
            guard let bound = bindings[message.address], let value = message.arguments.first?.number else { return [] }
            return bound.map { $0.message(showing: value) }
        }
        push(events, to: s)
        return true
    }

    /// Puts MIDI events in surface `s`'s outgoing ring, for the audio thread to send.
    func push(_ events: [UInt8]..., to s: Int) { push(events, to: s) }

    func push(_ events: [[UInt8]], to s: Int) {
        guard !events.isEmpty else { return }
        // One producer at a time: the ring's other end is the audio thread.
        sending.withLock { _ in
            for event in events where !event.isEmpty {
                event.withUnsafeBufferPointer { _ = wires.outgoing[s].push($0.baseAddress!, count: $0.count) }
            }
        }
    }

    /// The same, encoded (feedback comes so, once for every subscriber).
    public func deliver(encoded bytes: [UInt8], to name: String) -> Bool {
        guard let packet = try? OSCCodec.decode(bytes) else { return wires.names.contains(name) }
        return deliver(packet, to: name)
    }

    /// How many feedback packets surface `name` takes now: its ring's room,
    /// counted so that a packet whose every value is bound, some twice,
    /// still fits (2 KiB of MIDI a packet).
    public func room(for name: String) -> Int {
        guard let s = wires.names.firstIndex(of: name) else { return 0 }
        return wires.outgoing[s].room / (2 * MIDIRing.longestEvent)
    }
}
