import Access
import Catalogue
import Dispatch
import OSC

/// Roles (docs/access.md): what each session may change, checked for every
/// message from every transport before anything changes; and the messages
/// that ask about and change a session's role:
///
///     /login ,s CODE   the session takes the code's role, until /logout or it is gone
///     /logout          back to the role of the address it sends from
///     /role            replies /role ,ss[i…] NAME CONTROL [OUTPUT…]
///
/// Without an access file every admitted client is `Role.full`, or
/// `Role.readOnly` from a `--read-only` network, as before roles.
extension Controller {
    /// How long a wrong code waits for its `/error`: guessing is slow.
    static let wrongCodeDelay: Duration = .seconds(1)

    /// Takes new access rules (at start, and on SIGHUP); sessions logged in
    /// with a code are asked again, and logged out if their code is gone.
    public func useAccess(_ rules: AccessRules?) {
        lock.withLock { _ in
            accessRules = rules
            for session in logins.renew(with: rules) {
                logger.notice("\(session): logged out, its code is no longer in the access file")
            }
        }
    }

    /// The role `peer` acts in now: the one it logged in to, else its
    /// address's. A read-only peer (a `--read-only` network, or a page from
    /// another origin) is read-only whatever it logged in to.
    func role(of peer: OSCPeer) -> Role {
        if peer.access == .readOnly { return .readOnly }
        guard let rules = accessRules else { return .full }
        if let role = logins.role(of: peer) { return role }
        // Not let in by the rules now (a connection opened before a reload):
        // it may only read.
        return rules.role(for: peer.address.ipBytes) ?? Role(name: "none", control: .none)
    }

    /// Whether `role` may do what `message` asks of every one of `targets`:
    /// a pattern that reaches anything outside the role is refused whole.
    func permits(_ role: Role, _ targets: [Target], _ message: OSCMessage) -> Bool {
        switch role.control {
        case .all: true
        case .none: !changes(targets, message)
        case .outputs: targets.allSatisfy { !changes([$0], message) || mixes($0, of: role) }
        }
    }

    /// Whether `target` is part of the mix of one of `role`'s outputs: a
    /// crosspoint into it, one of its parameters but its name (level, mute,
    /// delay), or its mix safe.
    private func mixes(_ target: Target, of role: Role) -> Bool {
        switch target {
        case .parameter(let number, let place, _), .delta(let number, let place, _):
            switch place {
            case .crosspoint(_, let m): return role.controls(output: m)
            case .output(let m):
                if case .text = catalogue.parameters[number].kind { return false }
                return role.controls(output: m)
            case .source, .master: return false
            }
        case .safe(.mix(let m)):
            return role.controls(output: m)
        default:
            return false
        }
    }

    /// `/role`, `/login`, `/logout`.
    func roleMessage(_ target: Target, _ message: OSCMessage, from peer: OSCPeer) -> [OSCPacket] {
        switch target {
        case .login:
            return login(message, from: peer)
        case .logout:
            if logins.remove(peer) { logger.notice("\(peer) logged out") }
            return [.message(Self.describe(role(of: peer)))]
        default:
            return [.message(Self.describe(role(of: peer)))]
        }
    }

    /// `/role ,ss[i…]`: the role's name, its control, and its outputs.
    static func describe(_ role: Role) -> OSCMessage {
        OSCMessage("/role", [.string(role.name), .string(role.controlName)] + role.outputs.map { .int32(Int32($0)) })
    }

    /// `/login ,s CODE`. A wrong code, and any attempt from a host locked
    /// out, is answered `/error` only after `wrongCodeDelay`. The code is
    /// never logged or sent back.
    private func login(_ message: OSCMessage, from peer: OSCPeer) -> [OSCPacket] {
        guard let rules = accessRules, rules.usesCodes else {
            return refuseLogin(accessRules == nil ? "codes are not in use (no --access file)"
                                                  : "the access file has no codes", from: peer)
        }
        guard peer.access != .readOnly else {
            return refuseLogin("read-only: this session cannot log in (a page from another origin, or a --read-only network)",
                               from: peer)
        }
        guard message.arguments.count == 1, case .string(let code) = message.arguments[0] else {
            return refuseLogin("expected s code", from: peer)
        }
        let host = peer.address.ipBytes
        if let left = loginAttempts.lockedOut(host) {
            let seconds = Int((Double(left.components.seconds) + Double(left.components.attoseconds) * 1e-18).rounded(.up))
            return refuseLogin("too many wrong codes from \(peer.host); try again in \(seconds) s", from: peer, delayed: true)
        }
        guard let role = rules.role(forCode: code) else {
            if loginAttempts.wrong(from: host) {
                logger.warning("\(peer.host): \(LoginAttempts.limit) wrong codes within a minute; its logins are refused for \(LoginAttempts.lockout)")
            }
            return refuseLogin("wrong code", from: peer, delayed: true)
        }
        logins.enter(peer, code: code, role: role)
        logger.notice("\(peer) logged in as role \(role)")
        return [.message(Self.describe(role))]
    }

    /// `/error ,ss /login REASON`, logged without the code; `delayed`: sent
    /// after `wrongCodeDelay`, from another thread.
    private func refuseLogin(_ reason: String, from peer: OSCPeer, delayed: Bool = false) -> [OSCPacket] {
        logger.warning("refused /login from \(peer): \(reason)")
        let error = OSCPacket.message(OSCMessage("/error", [.string("/login"), .string(reason)]))
        guard delayed else { return [error] }
        let reply = reply
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(Self.wrongCodeDelay.components.seconds * 1000))) {
            reply(error, peer)
        }
        return []
    }
}
