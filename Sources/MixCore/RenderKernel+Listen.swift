/// The engineer's listen (`Listen`): the sources selected as the mix read
/// them (PFL), the outputs selected as they leave, after their limiters
/// (AFL), and the talkbacks sent to it, on a stereo pair of ports of its
/// own. Its shares are ramps of the kernel's (`RampBlock.Role.listen`, `.listenMix`).
extension RenderKernel {
    /// Audio thread, after the limiters: writes the listen's ports (set
    /// with `listen.use`). Silence while no share has moved and none is heard.
    @inlinable @_noLocks
    public mutating func renderListen(_ output: UnsafePointer<UnsafeMutablePointer<Float>>, frames: Int) {
        guard hasListen else { return }
        // (A period that cannot be rendered leaves the wake for the next one.)
        guard let sources = mixInput, progressFrames == frames else {
            listen.silence(frames: frames)
            return
        }
        let moved = wake(64)
        guard moved || listen.heard else {
            listen.silence(frames: frames)
            return
        }
        listen.render(sources: sources, count: inputs, outputs: output, count: outputs,
                      talks: UnsafePointer(talkbacks.inputs), frames: frames, progress: UnsafePointer(progress),
                      moved: moved, simd: simd)
    }
}
