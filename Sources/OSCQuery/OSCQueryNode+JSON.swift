import OSC

/// The JSON form of nodes and of their single attributes.
extension OSCQueryNode {
    /// Whether `VALUE` may be served: `ACCESS` says readable, or is absent.
    var isReadable: Bool { access?.isReadable ?? true }

    /// The node and all below it, as `GET /path` serves it.
    var json: String {
        var out = OSCQueryJSON()
        write(to: &out)
        return out.text
    }

    func write(to out: inout OSCQueryJSON) {
        out.beginObject()
        for attribute in Self.treeAttributes {
            writeAttribute(attribute, to: &out)
        }
        out.endObject()
    }

    /// The attributes of a node object, in the order they are written.
    static let treeAttributes: [OSCQueryAttribute] = [
        .fullPath, .description, .access, .type, .value, .range, .unit, .clipMode, .contents,
    ]

    /// `{"ATTRIBUTE": …}`, or `{}` when the node has no such attribute, as
    /// `GET /path?ATTRIBUTE` serves it.
    func json(for attribute: OSCQueryAttribute) -> String {
        var out = OSCQueryJSON()
        out.beginObject()
        writeAttribute(attribute, to: &out)
        out.endObject()
        return out.text
    }

    /// Writes `"KEY":value` if the node has the attribute.
    private func writeAttribute(_ attribute: OSCQueryAttribute, to out: inout OSCQueryJSON) {
        switch attribute {
        case .fullPath:
            out.key(attribute.rawValue); out.string(fullPath)
        case .description:
            guard let description else { return }
            out.key(attribute.rawValue); out.string(description)
        case .access:
            guard let access else { return }
            out.key(attribute.rawValue); out.int(access.rawValue)
        case .type:
            guard let typeTags else { return }
            out.key(attribute.rawValue); out.string(typeTags)
        case .value:
            guard isReadable, let value else { return }
            out.key(attribute.rawValue)
            out.beginArray()
            for argument in value { out.argument(argument) }
            out.endArray()
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
        case .contents:
            guard isContainer else { return }
            out.key(attribute.rawValue)
            out.beginObject()
            for name in contents.keys.sorted(by: Self.addressOrder) {
                out.key(name)
                contents[name]!.write(to: &out)
            }
            out.endObject()
        case .hostInfo, .tags, .extendedType, .critical, .overloads, .html:
            return
        }
    }

    private static func writeRange(_ range: OSCQueryRange?, to out: inout OSCQueryJSON) {
        out.beginObject()
        if let range {
            if let min = range.min { out.key("MIN"); out.argument(min) }
            if let max = range.max { out.key("MAX"); out.argument(max) }
            if let values = range.values {
                out.key("VALS")
                out.beginArray()
                for value in values { out.argument(value) }
                out.endArray()
            }
        }
        out.endObject()
    }

    private static func writeStrings(_ strings: [String?], to out: inout OSCQueryJSON) {
        out.beginArray()
        for string in strings {
            if let string { out.string(string) } else { out.null() }
        }
        out.endArray()
    }

    /// Names in the order people expect: numbers by value (`2` before `10`),
    /// then everything else alphabetically.
    static func addressOrder(_ a: String, _ b: String) -> Bool {
        switch (Int(a), Int(b)) {
        case let (x?, y?): x < y
        case (.some, nil): true
        case (nil, .some): false
        case (nil, nil): a < b
        }
    }
}
