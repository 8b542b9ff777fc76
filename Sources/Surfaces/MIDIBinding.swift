import Catalogue
import OSC
import RigControl

/// One control of a MIDI controller bound to one parameter of the
/// catalogue at one place, in a form (docs/surfaces.md, "MIDI controllers").
public struct MIDIBinding: Sendable {
    /// How the control's value becomes the parameter's.
    public enum Form: String, Sendable, CaseIterable {
        /// A level's fader position: the control's travel is the fader's (0…1, 0.75 = 0 dB).
        case fader
        /// A level in dB, the control's travel spread evenly over −90…+12 dB.
        case db
        /// A level's linear gain, the control's travel 0…1 (its top is unity).
        case volume
        /// A number parameter, the control's travel spread evenly over its range.
        case value
        /// A switch: each press (a note on, or a CC going from below 64 to 64
        /// or more) turns it over.
        case toggle
        /// A switch on while the control is held (note on, CC ≥ 64), off on release.
        case momentary
        /// An encoder sending steps (CC 1…63 up, 65…127 down, two's complement):
        /// a level by 1/128 of the fader's travel a step, a number by 1/128 of its range.
        case relative

        /// Whether it sets a value across the control's travel (and so may pick up).
        public var isContinuous: Bool { self == .fader || self == .db || self == .volume || self == .value }
    }

    /// Whether a move takes effect at once (`jump`) or only once the control
    /// has met the parameter's value (`pickup`: no jump when a knob and the
    /// rig disagree).
    public enum Mode: String, Sendable, CaseIterable { case jump, pickup }

    public let control: MIDIControl
    /// The parameter's address as the map gives it, e.g. `/source/1/volume`.
    public let address: String
    public let form: Form
    public let mode: Mode
    /// The address the binding sends to (the level's form: `/source/1/fader`).
    public let target: String
    /// For `value`: the parameter's range; for a level in dB, −90…+12.
    public let range: ClosedRange<Float>

    public init(control: MIDIControl, address: String, form: Form, mode: Mode, target: String,
                range: ClosedRange<Float>) {
        self.control = control
        self.address = address
        self.form = form
        self.mode = mode
        self.target = target
        self.range = range
    }

    /// The control's value `raw` (0…`control.top`) as a share of its travel, 0…1.
    public func travel(_ raw: Int) -> Float { Float(min(max(raw, 0), control.top)) / Float(control.top) }

    /// The parameter's value for `share` (0…1) of the control's travel.
    public func value(at share: Float) -> Float {
        form == .fader || form == .volume ? share : range.lowerBound + (range.upperBound - range.lowerBound) * share
    }

    /// Where the parameter's value `value` is on the control's travel: 0…1
    /// within it, above 1 for a level above the control's top (a fader
    /// above +10 dB, a gain above unity), which the control cannot reach.
    public func share(of value: Float) -> Float {
        form == .fader || form == .volume ? value : (value - range.lowerBound) / (range.upperBound - range.lowerBound)
    }

    /// Where the rig's feedback says the parameter's value in the binding's
    /// form: the target (a relative binding's without its `/delta`).
    public var feedbackAddress: String { target.hasSuffix("/delta") ? String(target.dropLast(6)) : target }

    /// The MIDI message that shows the parameter at `value` on the
    /// control: its position (a CC's value, pitch bend's 14 bits), or a
    /// switch's LED (127 on, 0 off; a note's as a note on).
    public func message(showing value: Float) -> [UInt8] {
        let channel = UInt8(control.channel - 1), number = UInt8(control.number)
        if form == .toggle || form == .momentary {
            let on: UInt8 = value >= 0.5 ? 127 : 0
            return [(control.kind == .note ? 0x90 : 0xB0) | channel, number, on]
        }
        let share = share(of: value)
        let raw = share.isNaN ? 0 : Int((min(max(share, 0), 1) * Float(control.top)).rounded())
        if control.kind == .pitchBend { return [0xE0 | channel, UInt8(raw & 0x7F), UInt8(raw >> 7)] }
        return [0xB0 | channel, number, UInt8(raw)]
    }

    /// The steps of a relative CC value: 1…63 up, 65…127 down, 0 and 64 none.
    public static func steps(_ raw: Int) -> Int { raw < 64 ? raw : raw == 64 ? 0 : raw - 128 }

    /// Whether the control is held down: a note with velocity, a CC at 64
    /// or more. (Pitch bend is never a switch: the map refuses it.)
    public static func isHeld(_ message: MIDIMessage) -> Bool {
        switch message {
        case .controlChange(_, _, let value): value >= 64
        case .note(_, _, let velocity): velocity > 0
        case .pitchBend: false
        }
    }
}
