import FoundationEssentials
import JSON
import RigControl

/// A map changed by MIDI learn (`/midi/learn`, `/midi/forget`) and written
/// back as the map file reads it (`MIDIMap+File.swift`), version 1.
extension MIDIMap {
    /// The map with `binding` in place of whatever its control did before.
    public func replacing(_ binding: MIDIBinding) -> MIDIMap {
        MIDIMap(bindings.filter { $0.control != binding.control } + [binding])
    }

    /// The map without the bindings of `address`.
    public func removing(_ address: String) -> MIDIMap {
        MIDIMap(bindings.filter { $0.address != address })
    }

    /// What `message`, moved while a learn of `address` waits, binds, or why it cannot:
    /// a switch is learnt as a toggle (jump); a level or a number from a
    /// CC as a fader's travel (in dB if asked at `/db`) or a value, in
    /// pick-up (a knob that is not where the rig is does not jump it), and
    /// from pitch bend (a motor fader) in jump.
    public static func learnt(_ message: MIDIMessage, address: String, inDecibels: Bool,
                              space: AddressSpace) -> Result<MIDIBinding, FileError> {
        let control = message.control
        let reader = FieldReader(file: "/midi/learn")
        guard case .success(let targets) = space.resolve(address), targets.count == 1,
              case .parameter(let number, _, _) = targets[0]
        else { return .failure(reader.error("", "\(address) is no longer a parameter of this rig")) }
        let form: MIDIBinding.Form
        switch space.catalogue.parameters[number].kind {
        case .toggle: form = .toggle
        case .level: form = inDecibels ? .db : .fader
        case .number: form = .value
        case .text: return .failure(reader.error("", "text cannot be bound"))
        }
        if control.kind == .note && form != .toggle {
            return .failure(reader.error("", "a note has no travel: move a fader or a knob to learn \(address)"))
        }
        if control.kind == .pitchBend && form == .toggle {
            return .failure(reader.error("", "pitch bend is not a switch: press a button to learn \(address)"))
        }
        let mode: MIDIBinding.Mode = form.isContinuous && control.kind == .controlChange ? .pickup : .jump
        do {
            return .success(try binding(control, address, form: form, mode: mode, at: "binding",
                                        reader: reader, space: space))
        } catch {
            return .failure(error)
        }
    }

    /// The map file's text: the version, then a binding a line.
    public func encoded() -> Data {
        var writer = JSONWriter()
        writer.open("{")
        writer.field("version", "\(Self.version)")
        writer.list("bindings", bindings.map { binding in
            let control = binding.control
            var fields: [(String, String)] = [("control", JSONWriter.quoted(control.kind.rawValue)),
                                              ("channel", "\(control.channel)")]
            if control.kind != .pitchBend { fields.append(("number", "\(control.number)")) }
            fields += [("address", JSONWriter.quoted(binding.address)), ("form", JSONWriter.quoted(binding.form.rawValue)),
                       ("mode", JSONWriter.quoted(binding.mode.rawValue))]
            return JSONWriter.inline(fields)
        })
        writer.close("}")
        return writer.data
    }
}
