import OSC
import RigControl

/// One Mackie Control surface: its units joined left to right (`serve
/// --mcu NAME`, repeated), what they show (`MackieView`), what each of
/// their controls asks of the rig, and the MIDI that shows the rig's
/// values on them (`MackieConsole+Showing.swift`). A value: the desk keeps
/// it under a lock of its own, and calls the rig only outside it.
public struct MackieConsole: Sendable {
    /// What a control asks: the desk carries it out.
    public enum Request: Sendable, Equatable {
        /// Send the rig this message (a fader, a V-pot's steps, a touch),
        /// then show what it changed at `echo` (the rig does not feed a
        /// client's own change back to it: the LCD's dB, the V-pot's ring).
        case send(OSCMessage, echo: String?)
        /// Turn this switch over (REC, SOLO, MUTE), then light its LED.
        case toggle(String)
        /// The view changed (a bank, a mode): show everything again.
        case view
    }

    /// Each unit's place in the desk's wires, left to right; the first holds the master fader.
    public let units: [Int]
    public private(set) var view: MackieView
    /// The strips as the view shows them now, and the master fader's level.
    var strips: [MackieStrip?] = []
    var master: (fader: String, decibels: String)?
    /// For each address the surface shows, what of which strip shows it (-1: the master fader).
    var shown: [String: [(strip: Int, what: MackieShown)]] = [:]
    /// The output sends on fader shows: the last one picked with SELECT in outputs.
    var picked = 1
    /// The faders a finger is on (strips, -1 the master), and their last
    /// touch or move: the rig never moves them, for `touchHold` at most (a release lost
    /// in a flood, or a unit unplugged under a finger, must not freeze a
    /// motor fader for the rest of the show).
    var touched: [Int: ContinuousClock.Instant] = [:]
    static let touchHold = Duration.seconds(10)
    /// Per strip, when its level's text was last written on the LCD, and the
    /// one waiting (a fade changes it every 33 ms; an LCD that changes 10
    /// times a second reads as well, and a MIDI cable of 3,125 bytes a second
    /// carries eight strips' faders and texts at that pace).
    var texts: [Int: (last: ContinuousClock.Instant, waiting: Event?)] = [:]
    static let textInterval = Duration.milliseconds(100)
    /// The outputs of the role the surface acts in, when it may change only
    /// their mixes (a performer's): it shows sends on fader for them alone.
    public private(set) var roleOutputs: [Int]?

    /// The surface acts in a role that may change only `outputs`' mixes
    /// (nil: more): sends on fader of the first, SEND stepping through them.
    public mutating func restrict(to outputs: [Int]?) {
        roleOutputs = outputs.flatMap { $0.isEmpty ? nil : $0 }
    }

    public init(units: [Int]) {
        self.units = units
        view = MackieView(width: units.count * Mackie.stripsPerUnit)
    }

    /// The strips of the view on `space`'s rig (after a change of view or of the rig's size).
    public mutating func look(_ space: AddressSpace) {
        // A text held back belongs to what a strip showed: it may show another now, or nothing.
        texts = texts.mapValues { ($0.last, nil) }
        if let outputs = roleOutputs {
            if case .sends(let m) = view.mode, outputs.contains(m) {} else {
                view.choose(.sends(output: outputs[0]), space: space)
            }
        }
        view.move(by: 0, space: space)
        strips = view.strips(space)
        master = view.master(space)
        shown = [:]
        for (i, strip) in strips.enumerated() {
            for (address, what) in strip?.shown ?? [] { shown[address, default: []].append((i, what)) }
        }
        if let master {
            shown[master.fader, default: []].append((-1, .fader))
        }
    }

    mutating func touch(_ i: Int, _ on: Bool) {
        touched[i] = on ? .now : nil
    }

    /// Whether a finger is on fader `i` (a touch older than `touchHold` is forgotten).
    func isTouched(_ i: Int) -> Bool {
        touched[i].map { ContinuousClock.now - $0 < Self.touchHold } ?? false
    }

    /// Every address the surface shows a value of: what to ask the rig when the view changes.
    public var addresses: [String] { shown.keys.sorted() }

    /// What `message` from unit `unit` (0-based, left to right) asks.
    public mutating func take(_ message: MIDIMessage, unit: Int, space: AddressSpace) -> Request? {
        let base = unit * Mackie.stripsPerUnit, strips = strips
        let strip = { (k: Int) -> MackieStrip? in strips.indices.contains(base + k) ? strips[base + k] : nil }
        switch message {
        case .pitchBend(let channel, let value):
            let position = Float(value) / 16383
            if channel == Mackie.masterChannel, unit == 0, let master {
                if touched[-1] != nil { touch(-1, true) }
                return .send(OSCMessage(master.fader, [.float(position)]), echo: nil)
            }
            guard channel <= Mackie.stripsPerUnit, let strip = strip(channel - 1) else { return nil }
            // A fader moving under a finger is touched afresh (its touch lapses 10 s after the last move).
            if touched[base + channel - 1] != nil { touch(base + channel - 1, true) }
            return .send(OSCMessage(strip.fader, [.float(position)]), echo: strip.decibels)
        case .controlChange(_, let number, let value):
            guard (Mackie.vPot..<Mackie.vPot + Mackie.stripsPerUnit).contains(number),
                  let pan = strip(number - Mackie.vPot)?.pan else { return nil }
            // A step is 1/64 of the pan's travel from the centre to a side.
            // (The rig feeds a client's steps back as the pan they make: no echo.)
            return .send(OSCMessage(pan + "/delta", [.float(Float(Mackie.steps(value)) / 64)]), echo: nil)
        case .note(_, let note, let velocity):
            let pressed = velocity > 0
            switch note {
            case Mackie.faderTouch..<Mackie.faderTouch + Mackie.stripsPerUnit:
                touch(base + note - Mackie.faderTouch, pressed)
                guard let strip = strip(note - Mackie.faderTouch) else { return nil }
                return .send(OSCMessage(strip.fader + "/touch", [.int32(pressed ? 1 : 0)]), echo: nil)
            case Mackie.masterTouch:
                guard unit == 0 else { return nil }
                touch(-1, pressed)
                guard let master else { return nil }
                return .send(OSCMessage(master.fader + "/touch", [.int32(pressed ? 1 : 0)]), echo: nil)
            default:
                guard pressed else { return nil }
                return press(note, strip: strip, space: space)
            }
        }
    }

    /// A button pressed: a strip's, or one that changes the view.
    mutating func press(_ note: Int, strip: (Int) -> MackieStrip?, space: AddressSpace) -> Request? {
        let row = note / Mackie.stripsPerUnit, k = note % Mackie.stripsPerUnit
        if let outputs = roleOutputs, note >= Mackie.select {
            // A performer's surface: SEND steps through the role's outputs; no other view.
            guard note == Mackie.send, case .sends(let m) = view.mode else { return pressBanks(note, space: space) }
            let next = outputs[((outputs.firstIndex(of: m) ?? -1) + 1) % outputs.count]
            return change { $0.choose(.sends(output: next), space: space) }
        }
        switch note {
        case Mackie.rec..<Mackie.select:
            let address = [strip(k)?.rec, strip(k)?.solo, strip(k)?.mute][row]
            return address.map { .toggle($0) }
        case Mackie.select..<Mackie.select + Mackie.stripsPerUnit:
            // In outputs, SELECT picks the output whose mix the faders become.
            guard view.mode == .outputs, let output = strip(k)?.number else { return nil }
            picked = output
            return change { $0.choose(.sends(output: output), space: space) }
        case Mackie.track: return change { $0.choose(.sources, space: space) }
        case Mackie.send: return change { [picked] in $0.choose(.sends(output: picked), space: space) }
        case Mackie.pan: return change { $0.choose(.outputs, space: space) }
        case Mackie.plugIn: return change { $0.choose(.dcas, space: space) }
        default: return pressBanks(note, space: space)
        }
    }

    /// BANK and CHANNEL ◀ ▶.
    mutating func pressBanks(_ note: Int, space: AddressSpace) -> Request? {
        switch note {
        case Mackie.bankLeft: change { [width = view.width] in $0.move(by: -width, space: space) }
        case Mackie.bankRight: change { [width = view.width] in $0.move(by: width, space: space) }
        case Mackie.channelLeft: change { $0.move(by: -1, space: space) }
        case Mackie.channelRight: change { $0.move(by: 1, space: space) }
        default: nil
        }
    }

    /// `.view` if `edit` changed the view (which is then looked at again), else nothing.
    private mutating func change(_ edit: (inout MackieView) -> Void) -> Request? {
        let before = view
        edit(&view)
        return view == before ? nil : .view
    }
}
