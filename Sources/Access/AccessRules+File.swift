import JSON
import FoundationEssentials

/// The access file, version 1 (docs/access.md), read as strictly as a
/// preset: an unknown field, a wrong type, an unknown role, an output
/// outside the rig or a bad network is refused with the file and the field
/// named, and nothing of the file is used.
extension AccessRules {
    public static let version = 1
    static let maximumRoles = 64
    static let maximumClients = 1024
    static let codeLength = 4...64
    static let nameLength = 1...32

    /// Reads the file at `path` for a rig of `outputs` outputs.
    public static func load(path: String, outputs: Int) throws(FileError) -> AccessRules {
        return try decode(FieldReader.contents(of: path), file: path, outputs: outputs)
    }

    public static func decode(_ data: Data, file: String, outputs: Int) throws(FileError) -> AccessRules {
        try FieldReader.read(data, file: file) { (root) throws(FileError) -> AccessRules in
            let reader = FieldReader(file: file)
            let fields = try reader.object(root, at: "", allowed: ["version", "roles", "clients"])
            try refuseRepeatedKeys(fields, at: "", reader: reader)
            try reader.checkVersion(fields, reads: Self.version)
            guard let rolesValue = fields["roles"] else { throw reader.error("roles", "missing; expected an object of roles by name") }
            let roles = try readRoles(rolesValue, reader: reader, outputs: outputs)
            guard let clientsValue = fields["clients"] else { throw reader.error("clients", "missing; expected an array") }
            guard let clients = clientsValue.array else { throw reader.error("clients", "expected an array, got \(clientsValue.kind)") }
            guard clients.count <= maximumClients else { throw reader.error("clients", "more than \(maximumClients) clients") }
            var networks: [(network: AccessPolicy.Network, role: Role)] = []
            var codes: [(code: [UInt8], role: Role)] = []
            for (index, client) in clients.enumerated() {
                let at = "clients[\(index)]"
                let entry = try reader.object(client, at: at, allowed: ["from", "code", "role"])
                try refuseRepeatedKeys(entry, at: at, reader: reader)
                guard let roleValue = entry["role"] else { throw reader.error("\(at).role", "missing") }
                let name = try reader.string(roleValue, at: "\(at).role", maxLength: nameLength.upperBound)
                guard let role = roles[name] else {
                    throw reader.error("\(at).role", "unknown role '\(Self.escaped(name))' (roles: \(roles.keys.sorted().joined(separator: ", ")))")
                }
                switch (entry["from"], entry["code"]) {
                case (let from?, nil):
                    let text = try reader.string(from, at: "\(at).from", maxLength: 64)
                    guard let network = AccessPolicy.Network(text) else {
                        throw reader.error("\(at).from", "'\(Self.escaped(text))' is not an IPv4 or IPv6 network (CIDR, e.g. 192.168.1.0/24)")
                    }
                    // 192.168.1.5/24 is most likely a typing mistake for one host or for the whole network.
                    guard network.hasNoHostBits else {
                        throw reader.error("\(at).from", "'\(Self.escaped(text))' has bits set past its prefix: write the network (\(network.networkDescription)) or one host (/32, /128)")
                    }
                    if let earlier = networks.firstIndex(where: { $0.network.isSameNetwork(as: network) }) {
                        throw reader.error("\(at).from", "the same network as an earlier client (\(earlier + 1) of the \"from\" entries)")
                    }
                    networks.append((network, role))
                case (nil, let codeValue?):
                    // The code itself is never written into an error: the
                    // message reaches the log.
                    let code = try reader.string(codeValue, at: "\(at).code", maxLength: codeLength.upperBound)
                    guard codeLength.contains(code.count) else {
                        throw reader.error("\(at).code", "a code has \(codeLength.lowerBound) to \(codeLength.upperBound) characters")
                    }
                    guard !code.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                        throw reader.error("\(at).code", "contains a control character")
                    }
                    guard !codes.contains(where: { $0.code == Array(code.utf8) }) else {
                        throw reader.error("\(at).code", "the same code as an earlier client: a code names one role")
                    }
                    codes.append((Array(code.utf8), role))
                default:
                    throw reader.error(at, "expected exactly one of \"from\" (a network) or \"code\"")
                }
            }
            guard !networks.isEmpty else {
                throw reader.error("clients", "no client has a \"from\": nobody could reach the rig, not even to log in")
            }
            return AccessRules(roles: roles, networks: networks, codes: codes)
        }
    }

    /// The most talkbacks a rig may have (`serve --talkbacks`).
    static let mostTalkbacks = 8

    private static func readRoles(_ value: JSONValue, reader: FieldReader,
                                  outputs: Int) throws(FileError) -> [String: Role] {
        guard let object = value.object else { throw reader.error("roles", "expected an object, got \(value.kind)") }
        let entries = object.entries
        guard !entries.isEmpty else { throw reader.error("roles", "no roles") }
        guard entries.count <= maximumRoles else { throw reader.error("roles", "more than \(maximumRoles) roles") }
        var roles: [String: Role] = [:]
        for (name, value) in entries {
            let at = "roles.\(escaped(name))"
            guard nameLength.contains(name.count),
                  name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_. ".contains($0)) }) else {
                throw reader.error(at, "a role's name has 1 to \(nameLength.upperBound) letters, digits, spaces, '-', '_' or '.'")
            }
            guard roles[name] == nil else { throw reader.error(at, "given twice") }
            let fields = try reader.object(value, at: at, allowed: ["control", "talkbacks", "listen"])
            try refuseRepeatedKeys(fields, at: at, reader: reader)
            guard let control = fields["control"] else {
                throw reader.error("\(at).control", "missing; expected \"all\", \"none\" or {\"outputs\": [...]}")
            }
            var talkbacks: [Int] = []
            if let list = fields["talkbacks"] {
                for (index, entry) in try reader.array(list, at: "\(at).talkbacks", maxCount: Self.mostTalkbacks).enumerated() {
                    let t = try reader.integer(entry, at: "\(at).talkbacks[\(index)]", in: 1...Self.mostTalkbacks)
                    guard !talkbacks.contains(t) else { throw reader.error("\(at).talkbacks[\(index)]", "talkback \(t) given twice") }
                    talkbacks.append(t)
                }
            }
            let listens = try fields["listen"].map { value throws(FileError) in try reader.bool(value, at: "\(at).listen") } ?? false
            roles[name] = Role(name: name, control: try readControl(control, at: "\(at).control", reader: reader,
                                                                    outputs: outputs),
                               talkbacks: talkbacks.sorted(), listens: listens)
        }
        return roles
    }

    private static func readControl(_ value: JSONValue, at: String, reader: FieldReader,
                                    outputs: Int) throws(FileError) -> Role.Control {
        if let word = value.string {
            switch word {
            case "all": return .all
            case "none": return .none
            default: throw reader.error(at, "'\(escaped(word))' is not a control; expected \"all\", \"none\" or {\"outputs\": [...]}")
            }
        }
        guard value.object != nil else {
            throw reader.error(at, "expected \"all\", \"none\" or {\"outputs\": [...]}, got \(value.kind)")
        }
        let fields = try reader.object(value, at: at, allowed: ["outputs"])
        try refuseRepeatedKeys(fields, at: at, reader: reader)
        guard let list = fields["outputs"] else { throw reader.error("\(at).outputs", "missing") }
        var chosen: [Int] = []
        for (index, entry) in try reader.array(list, at: "\(at).outputs", maxCount: outputs).enumerated() {
            let m = try reader.integer(entry, at: "\(at).outputs[\(index)]", in: 1...outputs)
            guard !chosen.contains(m) else { throw reader.error("\(at).outputs[\(index)]", "output \(m) given twice") }
            chosen.append(m)
        }
        guard !chosen.isEmpty else { throw reader.error("\(at).outputs", "no outputs; a role that changes nothing is \"none\"") }
        return .outputs(chosen.sorted())
    }

    /// A key given twice in an object: JSON readers disagree on which one
    /// counts, so a file that says who may do what must not have one.
    private static func refuseRepeatedKeys(_ object: JSONObject, at: String, reader: FieldReader) throws(FileError) {
        var seen: Set<String> = []
        for (key, _) in object.entries where !seen.insert(key).inserted {
            throw reader.error(at.isEmpty ? escaped(key) : "\(at).\(escaped(key))", "given twice")
        }
    }

    /// A name from the file as an error shows it: control characters escaped.
    static func escaped(_ text: String) -> String {
        String(text.unicodeScalars.flatMap { scalar -> [Character] in
            scalar.properties.generalCategory == .control ? Array(scalar.escaped(asASCII: true)) : [Character(scalar)]
        }.prefix(80))
    }
}
