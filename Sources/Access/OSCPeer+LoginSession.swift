import OSC

/// An OSC client's session, as logins know it (`Logins`): by its reply
/// path (`sessionKey`), from its host (`loginHost`).
extension OSCPeer: LoginSession {}
