/// The ramps the stages read rather than the fold (`RampBlock.Role.eq`,
/// `.limiter`): their values fold into no gain, and some change at once.
extension RenderKernel {
    /// Control side: per chunk of 16 slots, 1 if it holds a stage's value
    /// that ramps, 2 one that jumps (a band's shape, a cut's slope, a
    /// limiter's release or lookahead), 0 for the rest.
    static func stageChunks(_ layout: RampLayout) -> [UInt8] {
        var kinds = [UInt8](repeating: 0, count: layout.slots / RampLayout.lanes)
        let stride = [RampBlock.Strip.source: layout.inputStride, .output: layout.outputStride, .master: RampLayout.lanes]
        for (b, block) in layout.blocks.enumerated() {
            let jumps: Bool
            switch block.role {
            case .eq(let field): jumps = field.jumps
            case .limiter(let field): jumps = field.jumps
            default: continue
            }
            let first = layout.blockBase[b] / RampLayout.lanes
            for c in first..<(first + (stride[block.strip] ?? RampLayout.lanes) / RampLayout.lanes) {
                kinds[c] = jumps ? 2 : 1
            }
        }
        return kinds
    }

    /// Control side: the first slot of the output block of `role`; nil if
    /// the layout has none.
    static func outputBase(_ layout: RampLayout, _ role: RampBlock.Role) -> Int? {
        layout.bases(.output, role).first
    }
}
