/// The ramps the stages read rather than the fold (`RampBlock.Role.eq`,
/// `.limiter`, `.talk`): their values fold into no gain, and some change at once.
extension RenderKernel {
    /// Control side: per chunk of 16 slots, 0 if it holds no stage's
    /// value; else, in its two low bits, 1 for a value that ramps, 2 for one
    /// that jumps (a band's shape, a cut's slope, a limiter's release or
    /// lookahead), and above them the stage's bit in `stagesAwake`: 4 the
    /// sources' EQ, 8 the outputs', 16 the limiters, 32 the talkbacks, 64
    /// the listen. (The audio thread
    /// reads these as literals: it cannot read a static.)
    static func stageChunks(_ layout: RampLayout) -> [UInt8] {
        var kinds = [UInt8](repeating: 0, count: layout.slots / RampLayout.lanes)
        let stride = [RampBlock.Strip.source: layout.inputStride, .output: layout.outputStride, .master: RampLayout.lanes]
        for (b, block) in layout.blocks.enumerated() {
            let jumps: Bool, stage: UInt8
            switch block.role {
            case .eq(let field): (jumps, stage) = (field.jumps, block.strip == .source ? 4 : 8)
            case .limiter(let field): (jumps, stage) = (field.jumps, 16)
            case .talk: (jumps, stage) = (false, 32)
            case .listen, .listenMix: (jumps, stage) = (false, 64)
            default: continue
            }
            let first = layout.blockBase[b] / RampLayout.lanes
            for c in first..<(first + (stride[block.strip] ?? RampLayout.lanes) / RampLayout.lanes) {
                kinds[c] = (jumps ? 2 : 1) | stage
            }
        }
        return kinds
    }

    /// Audio thread: whether the stage of `bit` had a setting change since
    /// it last looked (`stagesAwake`), which it now has.
    @inlinable @inline(__always) @_noLocks
    mutating func wake(_ bit: UInt8) -> Bool {
        defer { stagesAwake &= ~bit }
        return stagesAwake & bit != 0
    }

    /// Every stage's bit: each looks at its settings in its next period.
    static let everyStage: UInt8 = 4 | 8 | 16 | 32 | 64

    /// Control side: the first slot of the output block of `role`; nil if
    /// the layout has none.
    static func outputBase(_ layout: RampLayout, _ role: RampBlock.Role) -> Int? {
        layout.bases(.output, role).first
    }
}
