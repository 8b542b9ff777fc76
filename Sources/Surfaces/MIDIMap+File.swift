import Catalogue
import FoundationEssentials
import JSON
import RigControl

/// The map file, version 1 (docs/surfaces.md, "The map file"), read as
/// strictly as the access file: an unknown field, a wrong type, a channel
/// outside 1…16, an address that is not one settable parameter of the rig,
/// a form the parameter has not, or a control bound twice is refused with
/// the file and the field named, and nothing of the file is used.
extension MIDIMap {
    public static let version = 1
    /// Every control a controller can have: 128 CCs and 128 notes on each of 16 channels, and 16 pitch bends.
    public static let maximumBindings = 2 * 128 * 16 + 16

    /// Reads the file at `path` for the rig `space` describes.
    public static func load(path: String, space: AddressSpace) throws(FileError) -> MIDIMap {
        return try decode(FieldReader.contents(of: path), file: path, space: space)
    }

    public static func decode(_ data: Data, file: String, space: AddressSpace) throws(FileError) -> MIDIMap {
        try FieldReader.read(data, file: file) { (root) throws(FileError) -> MIDIMap in
            let reader = FieldReader(file: file)
            let fields = try reader.object(root, at: "", allowed: ["version", "bindings"])
            try reader.checkVersion(fields, reads: Self.version)
            guard let list = fields["bindings"] else { throw reader.error("bindings", "missing; expected an array") }
            let entries = try reader.array(list, at: "bindings", maxCount: maximumBindings)
            var bindings: [MIDIBinding] = []
            var seen: [MIDIControl: Int] = [:]
            for (index, entry) in entries.enumerated() {
                let binding = try readBinding(entry, at: "bindings[\(index)]", reader: reader, space: space)
                if let earlier = seen[binding.control] {
                    throw reader.error("bindings[\(index)]", "\(binding.control) is already bound by bindings[\(earlier)]")
                }
                seen[binding.control] = index
                bindings.append(binding)
            }
            return MIDIMap(bindings)
        }
    }

    static func readBinding(_ value: JSONValue, at: String, reader: FieldReader,
                            space: AddressSpace) throws(FileError) -> MIDIBinding {
        let entry = try reader.object(value, at: at, allowed: ["control", "channel", "number", "address", "form", "mode"])
        func text(_ name: String) throws(FileError) -> String {
            guard let value = entry[name] else { throw reader.error("\(at).\(name)", "missing") }
            return try reader.string(value, at: "\(at).\(name)", maxLength: 256)
        }
        func choice<T: RawRepresentable & CaseIterable>(_ name: String, _ type: T.Type) throws(FileError) -> T
        where T.RawValue == String {
            let word = try text(name)
            guard let found = T(rawValue: word) else {
                let words = T.allCases.map(\.rawValue).joined(separator: ", ")
                throw reader.error("\(at).\(name)", "'\(word.escapingControlCharacters().cut(to: 64))' is not one of \(words)")
            }
            return found
        }
        let kind = try choice("control", MIDIControl.Kind.self)
        guard let channelValue = entry["channel"] else { throw reader.error("\(at).channel", "missing; 1 to 16") }
        let channel = try reader.integer(channelValue, at: "\(at).channel", in: 1...16)
        var number = 0
        if kind == .pitchBend {
            guard entry["number"] == nil else { throw reader.error("\(at).number", "pitch bend has no number") }
        } else {
            guard let numberValue = entry["number"] else { throw reader.error("\(at).number", "missing; 0 to 127") }
            number = try reader.integer(numberValue, at: "\(at).number", in: 0...127)
        }
        let control = MIDIControl(kind: kind, channel: channel, number: number)
        let address = try text("address")
        let form = try choice("form", MIDIBinding.Form.self)
        let mode = entry["mode"] == nil ? MIDIBinding.Mode.jump : try choice("mode", MIDIBinding.Mode.self)
        return try binding(control, address, form: form, mode: mode, at: at, reader: reader, space: space)
    }

    /// `control` bound to `address` in `form` and `mode`, if the rig and
    /// the control allow it (a binding read from the file, or learnt).
    static func binding(_ control: MIDIControl, _ address: String, form: MIDIBinding.Form, mode: MIDIBinding.Mode,
                        at: String, reader: FieldReader, space: AddressSpace) throws(FileError) -> MIDIBinding {
        let kind = control.kind
        let (target, range) = try resolve(address, form: form, at: "\(at).address", reader: reader, space: space)
        if mode == .pickup && !form.isContinuous {
            throw reader.error("\(at).mode", "pickup is for the forms that set a value across the travel (fader, db, volume, value), not \(form.rawValue)")
        }
        if kind == .note && (form.isContinuous || form == .relative) {
            throw reader.error("\(at).form", "a note has no travel: use toggle or momentary")
        }
        if kind == .pitchBend && (form == .toggle || form == .momentary) {
            throw reader.error("\(at).form", "pitch bend rests at its centre: it is not a switch")
        }
        if kind != .controlChange && form == .relative {
            throw reader.error("\(at).form", "relative steps come from a CC")
        }
        return MIDIBinding(control: control, address: address, form: form, mode: mode, target: target, range: range)
    }

    /// The address a binding in `form` sends to, and its range.
    static func resolve(_ address: String, form: MIDIBinding.Form, at: String, reader: FieldReader,
                        space: AddressSpace) throws(FileError) -> (String, ClosedRange<Float>) {
        let shown = "'\(address.escapingControlCharacters().cut(to: 64))'"
        guard !address.contains(where: { "*?[]{},#".contains($0) }) else {
            throw reader.error(at, "\(shown) is a pattern: a binding names one parameter")
        }
        guard case .success(let targets) = space.resolve(address), targets.count == 1,
              case .parameter(let number, let place, let written) = targets[0], written == .plain || written == .linear
        else { throw reader.error(at, "\(shown) is not the address of one of this rig's parameters") }
        let parameter = space.catalogue.parameters[number]
        guard parameter.isSettable else { throw reader.error(at, "\(shown) is reported by the rig, not set") }
        switch (parameter.kind, form) {
        case (.level, .fader):
            return (space.address(.parameter(number, place, .fader)), Parameter.Level.positions)
        case (.level, .relative):
            return (space.address(.delta(number, place, .fader)), Parameter.Level.positions)
        case (.level, .db):
            return (space.address(.parameter(number, place, .decibels)), Parameter.Level.decibels)
        case (.level, .volume):
            return (space.address(.parameter(number, place, .linear)), 0...1)
        case (.number(let range, _), .value):
            return (address, range)
        case (.number(let range, _), .relative):
            return (space.address(.delta(number, place, written)), range)
        case (.toggle, .toggle), (.toggle, .momentary):
            return (address, 0...1)
        default:
            throw reader.error(at, "\(shown) cannot take the form \(form.rawValue): \(Self.forms(parameter.kind))")
        }
    }

    /// The forms a kind of parameter takes, for an error.
    static func forms(_ kind: Parameter.Kind) -> String {
        switch kind {
        case .level: "a level takes fader, db, volume or relative"
        case .number: "a number takes value or relative"
        case .toggle: "a switch takes toggle or momentary"
        case .text: "text cannot be bound"
        }
    }
}
