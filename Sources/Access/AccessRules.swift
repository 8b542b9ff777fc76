/// The rules of an access file (`serve --access`): the roles, and which
/// clients have them, by the network they send from or by a code they log
/// in with. Read by `AccessRules+File.swift`; replaced whole on SIGHUP.
public struct AccessRules: Sendable {
    /// The roles by name.
    public let roles: [String: Role]
    /// Networks and their roles, the most specific (longest prefix) first;
    /// among equals, the file's order.
    let networks: [(network: AccessPolicy.Network, role: Role)]
    /// Codes (as bytes) and their roles.
    let codes: [(code: [UInt8], role: Role)]

    init(roles: [String: Role], networks: [(network: AccessPolicy.Network, role: Role)],
         codes: [(code: [UInt8], role: Role)]) {
        self.roles = roles
        // A stable sort: the file's order decides between equal prefixes.
        self.networks = networks.enumerated()
            .sorted { ($0.element.network.prefix, -$0.offset) > ($1.element.network.prefix, -$1.offset) }
            .map(\.element)
        self.codes = codes
    }

    /// The role of a client by the address it sends from: the most
    /// specific `from` that holds it; nil when none does (it is not let in).
    public func role(for ip: [UInt8]) -> Role? {
        networks.first { $0.network.contains(ip) }?.role
    }

    /// The role a code gives, if it is one of the file's. Every code is
    /// compared in full, whatever matches, so that the time taken tells
    /// nothing about how much of a code was right.
    public func role(forCode code: String) -> Role? {
        let given = Array(code.utf8)
        var found: Role?
        for (known, role) in codes {
            var difference: UInt8 = known.count == given.count ? 0 : 1
            for index in known.indices {
                difference |= known[index] ^ (index < given.count ? given[index] : 0)
            }
            if difference == 0 { found = role }
        }
        return found
    }

    /// Whether any client logs in with a code.
    public var usesCodes: Bool { !codes.isEmpty }

    public var networkCount: Int { networks.count }
    public var codeCount: Int { codes.count }

    /// Who is let in at all: the networks the `from` entries name. A client
    /// from anywhere else is dropped unanswered, as outside `--allow`.
    public var policy: AccessPolicy {
        AccessPolicy(allowed: networks.map(\.network), readOnly: [])
    }
}
