import MIDI
import Testing

/// The ring between the audio thread and the control side keeps events
/// whole and in order, and drops (and counts) what does not fit.
@Suite struct MIDIRingTests {
    @Test func eventsComeOutWholeAndInOrderAcrossTheWrap() {
        let ring = MIDIRing(capacity: 4096)
        defer { ring.free() }
        let out = UnsafeMutablePointer<UInt8>.allocate(capacity: MIDIRing.longestEvent)
        defer { out.deallocate() }
        // 3-byte events, 5 bytes each in the ring: many times round it.
        for round in 0..<5000 {
            let event: [UInt8] = [0xB0, UInt8(round % 128), UInt8((round / 128) % 128)]
            #expect(ring.push(event, count: 3))
            let count = ring.pop(into: out)
            #expect(count == 3)
            #expect(Array(UnsafeBufferPointer(start: out, count: 3)) == event)
        }
        #expect(ring.pop(into: out) == nil)
        #expect(ring.dropped == 0)
    }

    @Test func aFullRingAndAnEventTooLongAreDroppedAndCounted() {
        let ring = MIDIRing(capacity: 4096)
        defer { ring.free() }
        let event = [UInt8](repeating: 0x90, count: 1000)
        var kept = 0
        for _ in 0..<10 where ring.push(event, count: event.count) { kept += 1 }
        #expect(kept == 4) // 4 × 1002 bytes fit in 4096, a fifth does not
        #expect(ring.dropped == 6)
        let long = [UInt8](repeating: 0xF0, count: MIDIRing.longestEvent + 1)
        let empty = MIDIRing(capacity: 4096)
        defer { empty.free() }
        #expect(!empty.push(long, count: long.count))
        #expect(!empty.push(long, count: 0))
        #expect(empty.dropped == 2)
        // What was kept comes out whole.
        let out = UnsafeMutablePointer<UInt8>.allocate(capacity: MIDIRing.longestEvent)
        defer { out.deallocate() }
        var popped = 0
        while let count = ring.pop(into: out) {
            #expect(count == 1000 && out[0] == 0x90 && out[999] == 0x90)
            popped += 1
        }
        #expect(popped == 4)
    }
}
