/// One MIDI message from a controller, as far as a binding reads it: a
/// control change, a note, or pitch bend. Everything else (SysEx, clock,
/// program changes, a message cut short or with a data byte of 128 or
/// more) is `nil`: ignored.
public enum MIDIMessage: Equatable, Sendable {
    /// Channel 1…16, controller 0…127, value 0…127.
    case controlChange(channel: Int, number: Int, value: Int)
    /// Channel 1…16, note 0…127; velocity 0 is a note off.
    case note(channel: Int, number: Int, velocity: Int)
    /// Channel 1…16, 0…16383 (8192 the centre).
    case pitchBend(channel: Int, value: Int)

    /// The message in one event's bytes (a JACK MIDI event holds one message).
    public init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count >= 3 else { return nil }
        let status = Int(bytes[0]), first = Int(bytes[1]), second = Int(bytes[2])
        guard status >= 0x80, status < 0xF0, first < 0x80, second < 0x80 else { return nil }
        let channel = status & 0x0F + 1
        switch status & 0xF0 {
        case 0xB0: self = .controlChange(channel: channel, number: first, value: second)
        case 0x90: self = .note(channel: channel, number: first, velocity: second)
        case 0x80: self = .note(channel: channel, number: first, velocity: 0)
        case 0xE0: self = .pitchBend(channel: channel, value: first | second << 7)
        default: return nil
        }
    }

    /// The control it comes from, as bindings name controls.
    public var control: MIDIControl {
        switch self {
        case .controlChange(let channel, let number, _): MIDIControl(kind: .controlChange, channel: channel, number: number)
        case .note(let channel, let number, _): MIDIControl(kind: .note, channel: channel, number: number)
        case .pitchBend(let channel, _): MIDIControl(kind: .pitchBend, channel: channel, number: 0)
        }
    }
}

/// A physical control of a MIDI controller: a CC, a note (a pad or a
/// button) or the pitch bend of a channel.
public struct MIDIControl: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable {
        case controlChange = "cc"
        case note
        case pitchBend = "pitchbend"
    }

    public let kind: Kind
    /// 1…16.
    public let channel: Int
    /// 0…127; 0 for pitch bend.
    public let number: Int

    public init(kind: Kind, channel: Int, number: Int) {
        self.kind = kind
        self.channel = channel
        self.number = number
    }

    /// The largest value it sends: 127, or 16383 for pitch bend.
    public var top: Int { kind == .pitchBend ? 16383 : 127 }

    public var description: String {
        kind == .pitchBend ? "pitch bend on channel \(channel)" : "\(kind.rawValue) \(number) on channel \(channel)"
    }
}
