import Catalogue
import RigControl

/// What the strips of a Mackie Control surface show: a mode (chosen by
/// the assignment buttons) and the bank (the first channel shown), across
/// every unit joined left to right (docs/surfaces.md, "Mackie Control").
public struct MackieView: Sendable, Equatable {
    public enum Mode: Sendable, Equatable {
        /// The sources (the default): their levels, pans, listen, solo, mute.
        case sources
        /// The outputs: their levels, listen (AFL) and mute.
        case outputs
        /// The DCAs: their levels and mutes.
        case dcas
        /// Sends on fader: output `output`'s mix, a crosspoint a strip
        /// (`/matrix/{n}/{output}`), with its sources' names, listen (REC)
        /// and meters; the master fader is the output's level. SOLO and
        /// MUTE do nothing: a source's mute would silence it everywhere.
        case sends(output: Int)

        /// The X-Touch's scribble strip colour of the mode (white, yellow, blue, green).
        var colour: UInt8 {
            switch self {
            case .sources: 7
            case .outputs: 3
            case .dcas: 4
            case .sends: 2
            }
        }
    }

    public var mode: Mode = .sources
    /// The first channel shown, 0-based.
    public var first = 0
    /// Strips across all units.
    public let width: Int

    public init(width: Int) {
        self.width = width
    }

    /// How many channels the mode has to show on `space`'s rig.
    public func count(_ space: AddressSpace) -> Int {
        switch mode {
        case .sources, .sends: space.inputs
        case .outputs: space.outputs
        case .dcas: space.dcas
        }
    }

    /// Moved by `step` channels (a bank is the width, a channel 1), within
    /// the rig: the last bank shows the last channels.
    public mutating func move(by step: Int, space: AddressSpace) {
        first = min(max(first + step, 0), max(count(space) - width, 0))
    }

    /// The mode chosen, from the first channel (a mode's own numbering).
    public mutating func choose(_ mode: Mode, space: AddressSpace) {
        guard mode != self.mode else { return }
        self.mode = mode
        first = 0
        move(by: 0, space: space)
    }

    /// Each strip, left to right; nil beyond the rig's channels.
    public func strips(_ space: AddressSpace) -> [MackieStrip?] {
        (0..<width).map { i in
            let n = first + i + 1
            guard n <= count(space) else { return nil }
            switch mode {
            case .sources:
                return MackieStrip.make(.source, .source(n), number: n, named: .source(n), meter: .metersSource, space: space)
            case .outputs:
                return MackieStrip.make(.output, .output(n), number: n, named: .output(n), meter: .metersOutput, space: space)
            case .dcas:
                return MackieStrip.make(.dca, .dca(n), number: n, named: .dca(n), meter: nil, space: space)
            case .sends(let m):
                guard m <= space.outputs else { return nil }
                return MackieStrip.make(.crosspoint, .crosspoint(input: n, output: m), number: n, named: .source(n),
                                        meter: .metersSource, soloAndMute: false, space: space)
            }
        }
    }

    /// The master fader's level: the rig's master, or in sends on fader the output's.
    public func master(_ space: AddressSpace) -> (fader: String, decibels: String)? {
        let place: Parameter.Place, strip: Parameter.Strip
        if case .sends(let m) = mode, m <= space.outputs {
            (place, strip) = (.output(m), .output)
        } else {
            (place, strip) = (.master, .master)
        }
        guard let level = space.catalogue.parameters.firstIndex(where: { $0.strip == strip && $0.isLevel }) else { return nil }
        return (space.address(.parameter(level, place, .fader)), space.address(.parameter(level, place, .decibels)))
    }
}
