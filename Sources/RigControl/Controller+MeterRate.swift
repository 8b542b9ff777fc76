import OSC

extension Controller {
    /// The rates `/meters/rate` accepts, per second.
    static let meterRates = 1...MeterStream.highestRate

    /// `/meters/rate f RATE`: meters to the sender at RATE per second, 1…60,
    /// whether or not it was subscribed (a new rate replaces the old). Unlike
    /// `/meters/subscribe`, which clamps, a rate outside the range is refused:
    /// nothing here can be a button's value, so a wrong number is a mistake.
    func meterRate(_ message: OSCMessage, from peer: OSCPeer) -> [OSCPacket] {
        guard let meters else { return reject(message, "meters are not available", from: peer) }
        do {
            meters.subscribe(peer, rate: try Self.meterRate(ArgumentReader(arguments: message.arguments)))
            admit(peer, .meters)
        } catch {
            return reject(message, error.reason, from: peer)
        }
        return []
    }

    private static func meterRate(_ args: ArgumentReader) throws(ArgumentReader.Failure) -> Double {
        guard args.arguments.count == 1 else {
            throw ArgumentReader.Failure(reason: "expected 1 argument (rate per second), got \(args.arguments.count)")
        }
        let rate = try args.number(at: 0)
        guard meterRates.contains(rate) else {
            throw ArgumentReader.Failure(reason: "rate \(rate) out of range (1-\(Int(MeterStream.highestRate)))")
        }
        return rate
    }
}
