/// Where each ramp lives in the render kernel's arrays: the one place that
/// knows the block layout. A ramp's slot here is the number a `Change` names
/// it by.
///
/// The blocks are the catalogue's (`RampBlock`), grouped by strip: every
/// source block (`inputStride` slots each), every output block
/// (`outputStride` each), every master block (16 each), then the
/// crosspoints output-major: one padded row of inputs per output, the order
/// the mixing loop reads them in. Every block is padded to 16 lanes so that
/// a ramp update is one `SIMD16` operation for 16 parameters.
public struct RampLayout: Equatable, Sendable {
    public let inputs: Int
    public let outputs: Int
    /// The blocks, in the order they were given (a block's number is its place here).
    public let blocks: [RampBlock]
    /// Inputs rounded up to 16: the stride of a crosspoint row and of each source block.
    public let inputStride: Int
    /// Outputs rounded up to 16: the length of each output block.
    public let outputStride: Int
    /// First slot of each block, by block number.
    public let blockBase: [Int]
    /// First slot of the output blocks, the master blocks and the crosspoints.
    public let outputBase: Int
    public let masterBase: Int
    public let crosspointBase: Int
    /// Slots in all (a multiple of 16).
    public let slots: Int

    /// Ramps move 16 at a time, and every block is padded to that.
    public static let lanes = 16

    public init(inputs: Int, outputs: Int, blocks: [RampBlock]) {
        self.inputs = inputs
        self.outputs = outputs
        self.blocks = blocks
        let lanes = Self.lanes
        inputStride = max(lanes, (inputs + lanes - 1) / lanes * lanes)
        outputStride = max(lanes, (outputs + lanes - 1) / lanes * lanes)
        let length: [RampBlock.Strip: Int] = [.source: inputStride, .output: outputStride, .master: lanes]
        var base = Array(repeating: 0, count: blocks.count)
        var next = 0
        var firsts: [RampBlock.Strip: Int] = [:]
        for strip in [RampBlock.Strip.source, .output, .master] {
            firsts[strip] = next
            for (index, block) in blocks.enumerated() where block.strip == strip {
                base[index] = next
                next += length[strip] ?? lanes
            }
        }
        blockBase = base
        outputBase = firsts[.output] ?? 0
        masterBase = firsts[.master] ?? 0
        crosspointBase = next
        slots = next + outputs * inputStride
    }

    /// The slot of channel `channel` (1-based; 1 for the master) of block `block`.
    public func slot(block: Int, channel: Int) -> Int { blockBase[block] + channel - 1 }

    /// The slot of the crosspoint from input `input` to output `output` (1-based).
    public func crosspoint(_ input: Int, _ output: Int) -> Int {
        crosspointBase + (output - 1) * inputStride + (input - 1)
    }

    /// First slots of the blocks of one strip and role.
    public func bases(_ strip: RampBlock.Strip, _ role: RampBlock.Role) -> [Int] {
        blocks.indices.filter { blocks[$0].strip == strip && blocks[$0].role == role }.map { blockBase[$0] }
    }

    /// First slots of a source's gain blocks, in the order the kernel
    /// multiplies them: polarity (heard on both direct out taps), level and
    /// mute (on the `post` tap too), then the gates (in the mix only).
    public var sourceGainBases: [Int] { bases(.source, .polarity) + bases(.source, .gain) + bases(.source, .gate) }

    /// The shape a slot's ramp moves in: crosspoints and `.fader` blocks by
    /// the fader law, the rest linearly.
    public func shape(ofSlot slot: Int) -> RampBlock.Shape {
        if slot >= crosspointBase { return .fader }
        let block = blocks.indices.last { blockBase[$0] <= slot && blocks[$0].strip == strip(ofSlot: slot) }
        return block.map { blocks[$0].shape } ?? .linear
    }

    /// The strip a slot below the crosspoints belongs to.
    func strip(ofSlot slot: Int) -> RampBlock.Strip {
        slot < outputBase ? .source : slot < masterBase ? .output : .master
    }

    /// Per chunk of 16 slots: whether its ramps are levels (fader law).
    public var levelChunks: [Bool] {
        stride(from: 0, to: slots, by: Self.lanes).map { shape(ofSlot: $0) == .fader }
    }
}

extension RampLayout {
    /// Where each slot of this layout is in `next`, a layout of the same
    /// blocks for another size: −1 for a channel or crosspoint `next` does
    /// not have, and for padding. A channel keeps its lane, a crosspoint its
    /// row and column.
    public func remap(to next: RampLayout) -> [Int32] {
        precondition(blocks == next.blocks, "a layout maps only to one of the same blocks")
        var table = [Int32](repeating: -1, count: slots)
        let kept: [RampBlock.Strip: Int] = [.source: min(inputs, next.inputs), .output: min(outputs, next.outputs),
                                            .master: Self.lanes]
        for (b, block) in blocks.enumerated() {
            for lane in 0..<(kept[block.strip] ?? 0) { table[blockBase[b] + lane] = Int32(next.blockBase[b] + lane) }
        }
        for output in 0..<min(outputs, next.outputs) {
            for input in 0..<min(inputs, next.inputs) {
                table[crosspointBase + output * inputStride + input] =
                    Int32(next.crosspointBase + output * next.inputStride + input)
            }
        }
        return table
    }
}

extension RampLayout {
    /// Changes staged for this layout, staged for `next` instead (a slot
    /// `remap` gives); those whose ramp `next` lacks are dropped.
    public static func restage(_ changes: [Change], by remap: [Int32]) -> [Change] {
        changes.compactMap { change in
            let slot = Int(change.ramp)
            guard slot >= 0 && slot < remap.count && remap[slot] >= 0 else { return nil }
            var moved = change
            moved.ramp = remap[slot]
            return moved
        }
    }
}
