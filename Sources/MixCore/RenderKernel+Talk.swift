/// The talkbacks (`Talkbacks`): each talkback's input added into the
/// outputs it talks to, after their level and mute, before their EQ, delay
/// and limiter. Its sends are ramps of the kernel's (`RampBlock.Role.talk`).
extension RenderKernel {
    /// Audio thread: adds the talkbacks' inputs into the outputs' buffers.
    /// Nothing at all while no send has moved and every send is 0.
    @inlinable @_noLocks
    mutating func talk(_ output: UnsafePointer<UnsafeMutablePointer<Float>>, frames: Int) {
        guard hasTalkbacks else { return }
        let moved = wake(32)
        guard moved || talkbacks.heard else { return }
        talkbacks.add(into: output, outputs: outputs, frames: frames, progress: UnsafePointer(progress), moved: moved,
                       simd: simd)
    }
}
