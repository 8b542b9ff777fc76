/// What an `OSCQueryServer` serves: a namespace built once, and its current
/// values. Called from the server's threads, possibly concurrently. (Who
/// may see and change it is the `AccessDoor`'s word, given to the server.)
/// When the address space changes, the server is given a new model
/// (`OSCQueryServer.replaceModel(with:)`); an answer begun with the old
/// one may still read its values meanwhile.
public protocol OSCQueryModel: Sendable {
    /// The namespace, built once; its root is `/`.
    var namespace: OSCQueryNamespace { get }

    /// The current values, taken together for one answer.
    func values() -> any OSCQueryValues
}
