import Catalogue
import RigControl

/// What one strip of a Mackie Control surface shows and moves: the
/// addresses of the rig's parameters behind it (`MackieView` finds them in
/// the catalogue), and where its meter is.
public struct MackieStrip: Sendable, Equatable {
    /// The channel it shows, 1-based (source 9, output 3, DCA 2).
    public let number: Int
    /// Its name's address (the LCD's top row).
    public let name: String
    /// Its level in the fader's form (the motor fader) and in dB (the LCD's bottom row).
    public let fader: String
    public let decibels: String
    /// A number the V-pot turns and its ring shows (a source's pan).
    public let pan: String?
    /// The switches of REC (the engineer's listen), SOLO and MUTE.
    public let rec: String?
    public let solo: String?
    public let mute: String?
    /// Its meter: which reply, and the channel in it (0-based).
    public let meter: Reply.Name?
    public let meterChannel: Int

    /// Strip `place` of `strip`'s kind: each role the catalogue's parameter
    /// of that name (a level for the fader); nil if the kind has no level.
    /// `soloAndMute`: whether SOLO and MUTE reach the strip's own (not in
    /// sends on fader, where the source's mute would silence it everywhere).
    static func make(_ strip: Parameter.Strip, _ place: Parameter.Place, number: Int, named: Parameter.Place,
                     meter: Reply.Name?, soloAndMute: Bool = true, space: AddressSpace) -> MackieStrip? {
        let catalogue = space.catalogue
        func index(_ strip: Parameter.Strip, _ predicate: (Parameter) -> Bool) -> Int? {
            catalogue.parameters.firstIndex { $0.strip == strip && predicate($0) }
        }
        func address(_ name: String, at place: Parameter.Place, of strip: Parameter.Strip) -> String? {
            index(strip) { $0.name == name && $0.isSettable }.map { space.address(.parameter($0, place, .plain)) }
        }
        guard let level = index(strip, \.isLevel) else { return nil }
        let owner = named == place ? strip : Self.strip(of: named)
        return MackieStrip(
            number: number, name: address("name", at: named, of: owner) ?? "",
            fader: space.address(.parameter(level, place, .fader)),
            decibels: space.address(.parameter(level, place, .decibels)),
            pan: strip == .crosspoint ? nil : address("pan", at: place, of: strip),
            rec: address("listen", at: named, of: owner),
            solo: soloAndMute ? address("solo", at: named, of: owner) : nil,
            mute: soloAndMute ? address("mute", at: named, of: owner) : nil, meter: meter, meterChannel: number - 1)
    }

    /// The kind of strip a place is one of, for the names of a crosspoint's source.
    static func strip(of place: Parameter.Place) -> Parameter.Strip {
        switch place {
        case .output: .output
        case .dca: .dca
        default: .source
        }
    }

    /// Every address it shows, with what of it shows there.
    var shown: [(String, MackieShown)] {
        var shown: [(String, MackieShown)] = [(name, .name), (fader, .fader), (decibels, .decibels)]
        if let pan { shown.append((pan, .pan)) }
        for (address, button) in [(rec, Mackie.rec), (solo, Mackie.solo), (mute, Mackie.mute)] {
            if let address { shown.append((address, .button(button))) }
        }
        return shown
    }
}

/// What a strip shows of one address.
enum MackieShown: Sendable, Equatable {
    case name, fader, decibels, pan
    /// The LED of the button of this row (`Mackie.rec`, `.solo`, `.mute`).
    case button(Int)
}
