import CJack
import MIDI
import Synchronization

/// The surfaces' MIDI on the audio thread: each period, every event on a
/// surface's input port goes into its `incoming` ring for the control side,
/// and every event the control side left in its `outgoing` ring is written
/// to its output port, at the period's first frame. No lock, no
/// allocation; a full ring drops the event and counts it (`MIDIRing`).
extension ProcessContext {
    /// Part of the trampoline (it calls C): the period's MIDI, every surface.
    func exchangeMIDI(frames: jack_nframes_t) {
        guard let incoming = incomingMIDI, let outgoing = outgoingMIDI else { return }
        var event = jack_midi_event_t()
        for s in 0..<surfaceCount {
            if let port = OpaquePointer(bitPattern: midiPorts[2 &* s].load(ordering: .acquiring)),
               let buffer = jack_port_get_buffer(port, frames) {
                let events = jack_midi_get_event_count(buffer)
                var i: UInt32 = 0
                while i < events {
                    if jack_midi_event_get(&event, buffer, i) == 0, let bytes = event.buffer {
                        incoming[s].push(bytes, count: Int(event.size))
                    }
                    i &+= 1
                }
            }
            if let port = OpaquePointer(bitPattern: midiPorts[2 &* s &+ 1].load(ordering: .acquiring)),
               let buffer = jack_port_get_buffer(port, frames) {
                jack_midi_clear_buffer(buffer)
                let scratch = midiScratch
                // What the port has no room for this period waits for the
                // next; an event larger than an empty port takes is dropped,
                // counted, and so is one a write refuses all the same.
                var written = 0
                while let length = outgoing[s].nextLength() {
                    let fits = length <= jack_midi_max_event_size(buffer)
                    if !fits && written > 0 { break }
                    guard let count = outgoing[s].pop(into: scratch) else { break }
                    if fits && jack_midi_event_write(buffer, 0, scratch, count) == 0 {
                        written &+= 1
                    } else {
                        outgoing[s].noteDropped()
                    }
                }
            }
        }
    }
}
