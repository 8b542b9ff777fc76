import Catalogue
import OSC

/// `/rig/inputs N` and `/rig/outputs N`: the rig changes size while it
/// plays (LiveScene+Size.swift). A query is answered from the scene like a
/// parameter's (`currentValue`).
extension Controller {
    /// Reads the new size (a whole number, 1…512), resizes, and answers
    /// with the size now; subscribers are sent it too, with every parameter
    /// of the new channels (the scene's `touched`). Only full control gets
    /// here (the catalogue's effect: `changesWithArguments`).
    func resize(_ name: Command.Name, _ targets: [Target], _ message: OSCMessage, from peer: OSCPeer) -> [OSCPacket] {
        guard targets.count == 1 else { return reject(message, "\(name.address) takes no patterns", from: peer) }
        let count: Int
        do throws(ArgumentReader.Failure) {
            count = try Self.channelCount(ArgumentReader(arguments: message.arguments))
        } catch {
            return reject(message, error.reason, from: peer)
        }
        let scene = live.state.scene
        let (inputs, outputs) = name == .rigInputs ? (count, scene.outputCount) : (scene.inputCount, count)
        if (inputs, outputs) != (scene.inputCount, scene.outputCount) {
            // Resized first: `scheduler?.restage(by: live.resize(…))` would not
            // resize at all on a rig without a scheduler (an optional chain
            // skips its arguments).
            let remap = live.resize(inputs: inputs, outputs: outputs)
            scheduler?.restage(by: remap)
            live.log.notice("\(peer) \(name.address) \(count): the rig is now \(inputs)x\(outputs)")
            resized()
        }
        return [.message(OSCMessage(name.address, [.int32(Int32(count))]))]
    }

    /// A channel count: one whole number in 1…512 (an i, or an f with no fraction).
    private static func channelCount(_ args: ArgumentReader) throws(ArgumentReader.Failure) -> Int {
        guard args.arguments.count == 1 else {
            throw ArgumentReader.Failure(reason: "expected 1 argument (a channel count), got \(args.arguments.count)")
        }
        let number = try args.number(at: 0)
        guard number.rounded() == number else {
            throw ArgumentReader.Failure(reason: "a channel count is a whole number, not \(number)")
        }
        let range = Catalogue.channels
        guard range.contains(number) else {
            let written = Int(exactly: number).map(String.init) ?? "\(number)"
            throw ArgumentReader.Failure(reason: "channel count \(written) out of range (\(Int(range.lowerBound))-\(Int(range.upperBound)))")
        }
        return Int(number)
    }
}
