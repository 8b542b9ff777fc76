import Access
import OSC
import Synchronization

/// The client sessions and what each may do: the access file's rules in
/// force, the sessions logged in with a code (`Logins`) and the wrong codes
/// counted (`LoginAttempts`), each session's query allowance
/// (`QueryAllowance`), and the sessions that hold subscriptions with their
/// limits (`SessionRoll`). One part of the controller, owning its state
/// and its lock; it never calls another part while holding it.
final class Sessions: @unchecked Sendable {
    private struct State {
        var rules: AccessRules?
        var logins = Logins<OSCPeer>()
        var attempts = LoginAttempts()
        var allowance = QueryAllowance()
        var roll = SessionRoll()
        /// The rig's MIDI controllers bound to a role of the access file,
        /// by name (`serve --surface-role NAME=ROLE`).
        var surfaceRoles: [String: String] = [:]
    }

    private let state = Mutex(State())
    /// Delayed `/login` refusals not sent yet (Controller+Roles.swift).
    let waitingRefusals = Atomic<Int>(0)

    init() {}

    /// The access file's rules in force; nil: none, and every admitted
    /// client is `Role.full` or `Role.readOnly`.
    var rules: AccessRules? { state.withLock { $0.rules } }

    /// The role `peer` acts in now: the one it logged in to, else its
    /// address's. A read-only peer (a `--read-only` network, or a page from
    /// another origin) is read-only whatever it logged in to.
    func role(of peer: OSCPeer) -> Role {
        if peer.access == .readOnly { return .readOnly }
        return state.withLock { state in
            guard let rules = state.rules else { return .full }
            // A controller bound to a role has it, as long as the rules have it.
            if case .surface(let name) = peer.transport, let bound = state.surfaceRoles[name] {
                return rules.roles[bound] ?? Role(name: "none", control: .none)
            }
            if let role = state.logins.role(of: peer) { return role }
            // Not let in by the rules now (a connection opened before a
            // reload): it may only read.
            return rules.role(for: peer.address.ipBytes) ?? Role(name: "none", control: .none)
        }
    }

    /// New rules: logins asked again (those whose code left the file are
    /// logged out), and the sessions on the roll whose host they no longer
    /// let in taken off it. Returns both, for the controller to tell and end.
    func use(_ rules: AccessRules?) -> (loggedOut: [OSCPeer], shutOut: [OSCPeer]) {
        state.withLock { state in
            state.rules = rules
            let loggedOut = state.logins.renew(with: rules)
            guard let rules else { return (loggedOut, []) }
            // (A controller bound to a role is let in by it, not by its address.)
            let shutOut = state.roll.all.filter { session in
                if case .surface(let name) = session.transport, state.surfaceRoles[name] != nil { return false }
                return rules.role(for: session.address.ipBytes) == nil
            }
            for session in shutOut {
                state.roll.depart(session)
                state.logins.remove(session)
            }
            return (loggedOut, shutOut)
        }
    }

    /// Binds the MIDI controller `name` to the access file's role `role`.
    func bindSurface(_ name: String, role: String) {
        state.withLock { $0.surfaceRoles[name] = role }
    }

    /// What a `/login` with `code` comes to, before any reply.
    enum LoginOutcome {
        case role(Role)
        /// Refused, for a reason a sender may be told at once.
        case refused(String)
        /// Refused for a wrong code or a lockout: told only after a delay;
        /// `locked` says what the wrong code brought about (logged once).
        case refusedLate(String, locked: LoginAttempts.Outcome?)
    }

    /// Why no code can log in now (no access file, or one without codes); nil when one can.
    var codesUnavailable: String? {
        state.withLock { state in
            guard let rules = state.rules else { return "codes are not in use (no --access file)" }
            return rules.usesCodes ? nil : "the access file has no codes"
        }
    }

    /// Checks a code from `peer` against the rules and the attempt limits;
    /// a right one logs the session in.
    func login(_ code: String, from peer: OSCPeer) -> LoginOutcome {
        state.withLock { state in
            guard let rules = state.rules, rules.usesCodes else { return .refused("codes are not in use") }
            let host = peer.address.ipBytes
            // Refused without a look at the code.
            switch state.attempts.refusal(for: host) {
            case .host(let left)?:
                return .refusedLate("too many wrong codes from \(peer.host); try again in \(Self.seconds(left)) s", locked: nil)
            case .network(let left)?:
                return .refusedLate("too many wrong codes on the network; try again in \(Self.seconds(left)) s", locked: nil)
            case nil:
                break
            }
            guard let role = rules.role(forCode: code) else {
                return .refusedLate("wrong code", locked: state.attempts.wrong(from: host))
            }
            state.logins.enter(peer, code: code, role: role)
            return .role(role)
        }
    }

    /// `peer` logs out (or is gone); whether it had logged in.
    func logout(_ peer: OSCPeer) -> Bool { state.withLock { $0.logins.remove(peer) } }

    /// These were heard from (a sender, and the destinations it renewed):
    /// their subscriptions are not the ones to make room.
    func heard(_ peers: [OSCPeer]) {
        state.withLock { state in for peer in peers { state.roll.heard(peer) } }
    }

    /// Takes `bytes` of query replies from `peer`'s allowance; false when it has fewer.
    func spend(_ bytes: Int, by peer: OSCPeer) -> Bool { state.withLock { $0.allowance.spend(bytes, by: peer) } }

    /// Enters a subscription of `kind`; the session that must end to make room, if one must.
    func admit(_ session: OSCPeer, _ kind: SessionRoll.Kind) -> (session: OSCPeer, among: Int)? {
        state.withLock { $0.roll.admit(session, kind) }
    }

    /// `session`'s subscription of `kind` ended.
    func end(_ session: OSCPeer, _ kind: SessionRoll.Kind) { state.withLock { $0.roll.end(session, kind) } }

    /// `session` is gone: off the roll, logged out; whether it had logged in.
    func depart(_ session: OSCPeer) -> Bool {
        state.withLock { state in
            state.roll.depart(session)
            return state.logins.remove(session)
        }
    }

    /// A duration in whole seconds, rounded up.
    static func seconds(_ duration: Duration) -> Int {
        Int((Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18).rounded(.up))
    }
}
