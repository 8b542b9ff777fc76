import CFrames
import MixCore
import Testing

/// The C transposes (`CFrames`) on their own, held to the plain definition:
/// frame k's lane l is channel l's sample offset + k. `WideLimiterTests`
/// and `WideEqualiserTests` compare two builds that both use them, so a
/// mistake common to both would not show there. Every count from 1 to 17
/// (the eight-frame steps and the tail one by one), 64 and 100, at offsets
/// 0 and 3, with eight lanes where the CPU has AVX (the avx2 path) and
/// sixteen where it has AVX-512 (on other architectures both, the plain
/// loops); nothing outside the frames asked for is written, either way.
@Suite struct FrameTransposeTests {
    static var laneCounts: [Int] {
        #if arch(x86_64)
        (SIMDPath.available.contains(.avx2) ? [8] : []) + (SIMDPath.available.contains(.avx512) ? [16] : [])
        #else
        [8, 16] // the plain loops that stand in for them elsewhere
        #endif
    }

    @Test func framesAreChannelsTransposedAndBack() {
        let marker: Float = -7
        for lanes in Self.laneCounts {
            for count in Array(1...17) + [64, 100] {
                for offset in [0, 3] {
                    let length = offset + count + 2
                    let channels = (0..<lanes).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: length) }
                    let copies = (0..<lanes).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: length) }
                    let frames = UnsafeMutablePointer<Float>.allocate(capacity: lanes * (count + 1))
                    defer { (channels + copies).forEach { $0.deallocate() }; frames.deallocate() }
                    for l in 0..<lanes {
                        for k in 0..<length { channels[l][k] = Float(l * 1000 + k) }
                        copies[l].update(repeating: marker, count: length)
                    }
                    frames.update(repeating: marker, count: lanes * (count + 1))
                    var table: [UnsafeMutablePointer<Float>?] = channels
                    crosspoint_frames_from_channels(&table, Int32(lanes), offset, count, frames)
                    let gathered = (0..<count).allSatisfy { k in
                        (0..<lanes).allSatisfy { l in frames[k * lanes + l] == Float(l * 1000 + offset + k) }
                    }
                    #expect(gathered, "\(lanes) lanes, \(count) frames from \(offset): a frame is each channel's sample")
                    #expect((0..<lanes).allSatisfy { frames[count * lanes + $0] == marker }, "nothing past the frames")
                    table = copies
                    crosspoint_channels_from_frames(frames, &table, Int32(lanes), offset, count)
                    let scattered = (0..<lanes).allSatisfy { l in
                        (0..<length).allSatisfy { k in
                            copies[l][k] == (k >= offset && k < offset + count ? Float(l * 1000 + k) : marker)
                        }
                    }
                    #expect(scattered, "\(lanes) lanes, \(count) frames from \(offset): back to each channel, nothing else written")
                }
            }
        }
    }
}
