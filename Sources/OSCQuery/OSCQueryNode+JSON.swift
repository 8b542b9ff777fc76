import JSON
import OSC

/// The JSON form of a node's declared attributes: everything but
/// `FULL_PATH`, `VALUE` and `CONTENTS`, which the namespace writes.
extension OSCQueryNode {
    /// `,"ACCESS":…,"TYPE":…`: the members between `DESCRIPTION` and `VALUE`.
    var membersBeforeValue: [UInt8] {
        JSONBytes.members { out in
            writeAttribute(.access, to: &out)
            writeAttribute(.type, to: &out)
        }
    }

    /// `,"RANGE":…,"UNIT":…,"CLIPMODE":…,"OVERLOADS":…`: the members after `VALUE`.
    var membersAfterValue: [UInt8] {
        JSONBytes.members { out in
            for attribute in [OSCQueryAttribute.range, .unit, .clipMode, .overloads] {
                writeAttribute(attribute, to: &out)
            }
        }
    }

    /// Writes `"KEY":value` if the node has the declared attribute; nothing
    /// for the attributes the namespace writes.
    func writeAttribute(_ attribute: OSCQueryAttribute, to out: inout JSONBytes) {
        switch attribute {
        case .description:
            guard let description else { return }
            out.key(attribute.rawValue); out.string(description)
        case .access:
            guard let access else { return }
            out.key(attribute.rawValue); out.int(access.rawValue)
        case .type:
            guard let typeTags else { return }
            out.key(attribute.rawValue); out.string(typeTags)
        case .range:
            guard let range else { return }
            out.key(attribute.rawValue)
            out.beginArray()
            for entry in range { Self.writeRange(entry, to: &out) }
            out.endArray()
        case .unit:
            guard let unit else { return }
            out.key(attribute.rawValue)
            Self.writeStrings(unit, to: &out)
        case .clipMode:
            guard let clipMode else { return }
            out.key(attribute.rawValue)
            Self.writeStrings(clipMode.map { $0?.rawValue }, to: &out)
        case .overloads:
            guard !overloads.isEmpty else { return }
            out.key(attribute.rawValue)
            out.beginArray()
            for overload in overloads {
                out.beginObject()
                for attribute in [OSCQueryAttribute.type, .description, .range, .unit, .clipMode] {
                    overload.writeAttribute(attribute, to: &out)
                }
                out.endObject()
            }
            out.endArray()
        case .fullPath, .value, .contents, .hostInfo, .tags, .extendedType, .critical, .html:
            return
        }
    }

    /// One entry of `RANGE`: `{"MIN":…,"MAX":…}` or `{"VALS":[…]}`; `null`
    /// for an argument without a range (the proposal's placeholder).
    private static func writeRange(_ range: OSCQueryRange?, to out: inout JSONBytes) {
        guard let range else { return out.null() }
        out.beginObject()
        if let min = range.min { out.key("MIN"); out.argument(min) }
        if let max = range.max { out.key("MAX"); out.argument(max) }
        if let values = range.values {
            out.key("VALS")
            out.beginArray()
            for value in values { out.argument(value) }
            out.endArray()
        }
        out.endObject()
    }

    private static func writeStrings(_ strings: [String?], to out: inout JSONBytes) {
        out.beginArray()
        for string in strings {
            if let string { out.string(string) } else { out.null() }
        }
        out.endArray()
    }
}
