import OSC

/// What the surface shows of the rig: its feedback turned into pitch bend
/// for the motor faders, LEDs, LED rings and the LCD, and its meters into
/// channel pressure, each for the unit that holds the strip.
extension MackieConsole {
    /// One MIDI event for one unit: its place in the desk's wires, and the bytes.
    public typealias Event = (wire: Int, bytes: [UInt8])

    /// The MIDI that shows `message`, one of the rig's values, wherever the
    /// view shows it. A level's text on the LCD changes at most every
    /// `textInterval` per strip (its last value follows: `dueTexts`).
    public mutating func show(_ message: OSCMessage) -> [Event] {
        guard let places = shown[message.address], let argument = message.arguments.first else { return [] }
        let now = ContinuousClock.now
        return places.compactMap { place -> Event? in
            guard let event = event(place, argument) else { return nil }
            guard place.what == .decibels else { return event }
            if let last = texts[place.strip]?.last, now - last < Self.textInterval {
                texts[place.strip]?.waiting = event
                return nil
            }
            texts[place.strip] = (now, nil)
            return event
        }
    }

    /// The level texts held back by `show` whose time has come.
    public mutating func dueTexts() -> [Event] {
        let now = ContinuousClock.now
        var due: [Event] = []
        for (strip, text) in texts {
            guard let waiting = text.waiting, now - text.last >= Self.textInterval else { continue }
            due.append(waiting)
            texts[strip] = (now, nil)
        }
        return due
    }

    /// The MIDI that shows `argument` at one place of the view.
    func event(_ place: (strip: Int, what: MackieShown), _ argument: OSCArgument) -> Event? {
        // A fader under a finger is never moved: the rig sends its value on release.
        if place.what == .fader && isTouched(place.strip) { return nil }
        if place.strip < 0 {
            guard let value = argument.number else { return nil }
            return (units[0], Mackie.fader(Mackie.masterChannel - 1, at: value))
        }
        let (unit, k) = place.strip.quotientAndRemainder(dividingBy: Mackie.stripsPerUnit)
        let wire = units[unit], extender = unit > 0
        switch place.what {
        case .name:
            guard case .string(let name) = argument else { return nil }
            return (wire, Mackie.lcd(extender: extender, offset: k * Mackie.lcdWidth, Self.cell(name)))
        case .decibels:
            guard let value = argument.number else { return nil }
            return (wire, Mackie.lcd(extender: extender, offset: 56 + k * Mackie.lcdWidth, Self.cell(Self.decibels(value))))
        case .fader:
            guard let value = argument.number else { return nil }
            return (wire, Mackie.fader(k, at: value))
        case .pan:
            return (wire, Mackie.ring(k, pan: argument.number))
        case .button(let row):
            guard let value = argument.number else { return nil }
            return (wire, Mackie.led(row + k, value >= 0.5))
        }
    }

    /// The meters of the strips that show one of `message`'s (`/meters/source`, `/meters/output`).
    public func meters(_ message: OSCMessage) -> [Event] {
        strips.enumerated().compactMap { i, strip -> Event? in
            guard let strip, let meter = strip.meter, meter.rawValue == message.address,
                  message.arguments.indices.contains(strip.meterChannel),
                  let decibels = message.arguments[strip.meterChannel].number else { return nil }
            let (unit, k) = i.quotientAndRemainder(dividingBy: Mackie.stripsPerUnit)
            return (units[unit], Mackie.meter(k, decibels: decibels))
        }
    }

    /// What the view shows besides the rig's values: the strips' colours,
    /// empty strips blanked (fader down, ring, LEDs and LCD off), the
    /// first strip's number on the two-character display, and the
    /// assignment and SELECT LEDs saying the mode.
    public func frame() -> [Event] {
        var events: [Event] = []
        for (unit, wire) in units.enumerated() {
            let extender = unit > 0
            let base = unit * Mackie.stripsPerUnit
            let present = (0..<Mackie.stripsPerUnit).map { strips.indices.contains(base + $0) && strips[base + $0] != nil }
            events.append((wire, Mackie.colours(extender: extender, present.map { $0 ? view.mode.colour : 0 })))
            for k in 0..<Mackie.stripsPerUnit {
                let strip = present[k] ? strips[base + k] : nil
                // SELECT lit on the output whose mix sends on fader shows; off otherwise.
                events.append((wire, Mackie.led(Mackie.select + k, view.mode == .outputs && strip?.number == picked)))
                guard let strip else {
                    events += [(wire, Mackie.fader(k, at: 0)), (wire, Mackie.ring(k, pan: nil)),
                               (wire, Mackie.lcd(extender: extender, offset: k * Mackie.lcdWidth, Self.cell(""))),
                               (wire, Mackie.lcd(extender: extender, offset: 56 + k * Mackie.lcdWidth, Self.cell("")))]
                    events += [Mackie.rec, Mackie.solo, Mackie.mute].map { (wire, Mackie.led($0 + k, false)) }
                    continue
                }
                if strip.pan == nil { events.append((wire, Mackie.ring(k, pan: nil))) }
                for (address, row) in [(strip.rec, Mackie.rec), (strip.solo, Mackie.solo), (strip.mute, Mackie.mute)]
                where address == nil {
                    events.append((wire, Mackie.led(row + k, false)))
                }
            }
        }
        guard let first = units.first else { return events }
        let number = (view.first + 1) % 100
        events += Mackie.twoCharacters(number < 10 ? "0\(number)" : "\(number)").map { (first, $0) }
        let lit: Int
        switch view.mode {
        case .sources: lit = Mackie.track
        case .sends: lit = Mackie.send
        case .outputs: lit = Mackie.pan
        case .dcas: lit = Mackie.plugIn
        }
        events += [Mackie.track, Mackie.send, Mackie.pan, Mackie.plugIn].map { (first, Mackie.led($0, $0 == lit)) }
        return events
    }

    /// A strip's LCD cell: six characters of 7-bit ASCII (others as '?')
    /// and a space between strips, so that no name runs into the next cell.
    static func cell(_ text: String) -> String {
        let ascii = text.unicodeScalars.prefix(Mackie.lcdWidth - 1).map { $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" }
        return String(ascii) + String(repeating: " ", count: Mackie.lcdWidth - ascii.count)
    }

    /// A level in dB as the LCD shows it: "-12.5", "+3.0", "-inf".
    static func decibels(_ value: Float) -> String {
        guard value > -90 else { return "-inf" }
        let tenths = Int((value * 10).rounded())
        let sign = tenths > 0 ? "+" : tenths < 0 ? "-" : ""
        return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }
}
