import Access
import Catalogue
import Dispatch
import OSC
import SystemSupport

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
    /// with a code are asked again, and logged out if their code is gone
    /// (each is sent `/role` with the role it has now, so that a page shows
    /// it at once); the subscriptions of hosts the rules no longer let in end now.
    public func useAccess(_ rules: AccessRules?) {
        // Under the scene's lock, as a message is: a reload never comes
        // between a subscription and its entry on the roll.
        let loggedOut = live.lock.withLock { _ in
            let (loggedOut, shutOut) = sessions.use(rules)
            for session in shutOut {
                subscriptions.depart(session)
                logger.notice("\(session): subscriptions ended, the access file no longer lets its host in")
            }
            return loggedOut.map { ($0, roleReplies(sessions.role(of: $0))) }
        }
        // Told once the lock is let go: a send that finds a connection gone departs it.
        for (session, replies) in loggedOut {
            logger.notice("\(session): logged out, its code is no longer in the access file")
            for reply in replies { subscriptions.reply(reply, session) }
        }
    }

    /// The role `peer` acts in now (`Sessions.role`).
    func role(of peer: OSCPeer) -> Role { sessions.role(of: peer) }

    /// Binds the rig's MIDI controller `name` to the access file's role
    /// `role` (`serve --surface-role`): its moves reach what that role may
    /// change, whatever the loopback address's role (docs/surfaces.md).
    public func bindSurface(_ name: String, role: String) { sessions.bindSurface(name, role: role) }

    /// Whether `role` may do what `message` asks of every one of `targets`:
    /// a pattern that reaches anything outside the role is refused whole.
    func permits(_ role: Role, _ targets: [Target], _ message: OSCMessage) -> Bool {
        switch role.control {
        case .all: true
        case .none: targets.allSatisfy { !changes($0, message) || granted($0, to: role) }
        case .outputs: targets.allSatisfy { !changes($0, message) || mixes($0, of: role) || granted($0, to: role) }
        }
    }

    /// Whether `target` is what the access file grants `role` beyond its
    /// control: a talkback's talk (`"talkbacks"`), its own outputs' AFL
    /// (`"listen": true`).
    private func granted(_ target: Target, to role: Role) -> Bool {
        guard case .parameter(let number, let place, _) = target else { return false }
        let parameter = catalogue.parameters[number]
        switch (parameter.strip, parameter.name, place) {
        case (.talkback, "talk", .numbered(_, let t)): return role.talks(on: t)
        case (.output, "listen", .output(let m)): return role.listens(to: m)
        default: return false
        }
    }

    /// Whether `target` is part of the mix of one of `role`'s outputs: a
    /// parameter the catalogue lets a performer change (`Parameter.Reach.mix`:
    /// a crosspoint into the output, its level, mute and delay, not its
    /// name) or a safe that does (the output's mix safe).
    private func mixes(_ target: Target, of role: Role) -> Bool {
        switch target {
        case .parameter(let number, let place, _), .delta(let number, let place, _):
            guard catalogue.parameters[number].reach == .mix, let m = Parameter.mixOutput(place) else { return false }
            return role.controls(output: m)
        case .safe(let safe):
            return catalogue.safe(safe.kind)?.reach == .mix && role.controls(output: safe.channel)
        default:
            return false
        }
    }

    /// `/role`, `/login`, `/logout`.
    func roleMessage(_ name: Command.Name, _ message: OSCMessage, from peer: OSCPeer) -> [OSCPacket] {
        switch name {
        case .login:
            return login(message, from: peer)
        case .logout:
            if sessions.logout(peer) { live.log.notice("\(peer) logged out") }
            return roleReplies(sessions.role(of: peer))
        default:
            return roleReplies(sessions.role(of: peer))
        }
    }

    /// `/role ,ss[i…]`: the role's name, its control, and its outputs; then
    /// `/role/talkbacks ,s`: the talkbacks of the rig it may talk on ("1,2").
    /// Under the scene's lock (the rig's talkbacks are the scene's).
    func roleReplies(_ role: Role) -> [OSCPacket] {
        let count = live.state.scene.banks[Parameter.Strip.talkback.name]?.count ?? 0
        let talkbacks = count < 1 ? [] : (1...count).filter { role.talks(on: $0) }
        return [.message(OSCMessage(Command.Name.role.address,
                                    [.string(role.name), .string(role.controlName)] + role.outputs.map { .int32(Int32($0)) })),
                .message(OSCMessage(Reply.Name.roleTalkbacks.address,
                                    [.string(talkbacks.map(String.init).joined(separator: ","))]))]
    }

    /// `/login ,s CODE`. A wrong code, and any attempt from a host locked
    /// out, is answered `/error` only after `wrongCodeDelay`. The code is
    /// never logged or sent back.
    private func login(_ message: OSCMessage, from peer: OSCPeer) -> [OSCPacket] {
        if let reason = sessions.codesUnavailable { return refuseLogin(reason, from: peer) }
        guard peer.access != .readOnly else {
            return refuseLogin("read-only: this session cannot log in (a page from another origin, or a --read-only network)",
                               from: peer)
        }
        guard message.arguments.count == 1, case .string(let code) = message.arguments[0] else {
            return refuseLogin("expected s code", from: peer)
        }
        switch sessions.login(code, from: peer) {
        case .role(let role):
            live.log.notice("\(peer) logged in as role \(role)")
            return roleReplies(role)
        case .refused(let reason):
            return refuseLogin(reason, from: peer)
        case .refusedLate(let reason, let locked):
            // A refusal for a lockout has no log line: the lockout was logged once, when it began.
            switch locked {
            case .hostLocked?:
                live.log.warning("\(peer.host): \(LoginAttempts.limit) wrong codes within a minute; its logins are refused for \(LoginAttempts.lockout)")
            case .networkLocked?:
                live.log.warning("\(LoginAttempts.networkLimit) wrong codes within a minute from the network (the last from \(peer.host)); every login is refused until the minute has room")
            case .counted?, nil:
                break
            }
            return refuseLogin(reason, from: peer, delayed: true, logged: locked != nil)
        }
    }

    /// At most this many delayed refusals wait at once; past it they are
    /// dropped (a flood of forged attempts gets no flood of replies).
    static let waitingRefusalLimit = 64

    /// `/error ,ss /login REASON`, logged without the code; `delayed`: sent
    /// after `wrongCodeDelay`, from another thread.
    private func refuseLogin(_ reason: String, from peer: OSCPeer, delayed: Bool = false,
                             logged: Bool = true) -> [OSCPacket] {
        if logged { live.log.info("refused /login from \(peer): \(reason)") }
        let error = OSCPacket.message(OSCMessage(Reply.Name.error.address, [.string(Command.Name.login.address), .string(reason)]))
        guard delayed else { return [error] }
        guard sessions.waitingRefusals.add(1, ordering: .relaxed).newValue <= Self.waitingRefusalLimit else {
            sessions.waitingRefusals.subtract(1, ordering: .relaxed)
            return []
        }
        let (reply, sessions) = (subscriptions.reply, sessions)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(Self.wrongCodeDelay.components.seconds * 1000))) {
            sessions.waitingRefusals.subtract(1, ordering: .relaxed)
            reply(error, peer)
        }
        return []
    }
}

extension Controller {
    /// Whether an address may reach `/login`, written plainly or as a
    /// pattern (`/log*`): its text is a code, never to be logged.
    static func mayBeLogin(_ address: String) -> Bool {
        let parts = address.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && OSCAddressPattern.matches(parts[1], "login")
    }

    /// A message as the log shows it with its text arguments left out.
    static func withholdingText(_ message: OSCMessage) -> String {
        let arguments = message.arguments.map { argument -> String in
            if case .string = argument { "(text withheld)" } else { "\(argument)" }
        }
        return ([message.address.cut(), message.typeTags] + arguments.map { $0.cut() }).joined(separator: " ")
    }
}
