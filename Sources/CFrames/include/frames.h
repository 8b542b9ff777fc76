#ifndef CROSSPOINT_FRAMES_H
#define CROSSPOINT_FRAMES_H

#include <stddef.h>

/// Sixteen (or eight) channels' runs of samples as frames, and back: the
/// transposes of the EQ's and the limiters' loops on AVX-512 (and AVX2)
/// (docs/processing.md, "In the kernel"). Written with the CPU's shuffles
/// because the Swift compiler merges the three stages of a transpose
/// written in Swift into shuffles of more than two vectors, which it then
/// builds from inserts, broadcasts and blends.
///
/// Audio thread: no allocation, no lock, no call into any library. Call
/// them for sixteen lanes only where the CPU has AVX-512 F (the render
/// kernel's avx512 path), for eight where it has AVX (the avx2 and avx512
/// paths); on other architectures they are plain loops with the same
/// result.

/// Frames `offset` … `offset + count − 1` of `channels[0 … lanes − 1]`
/// into `frames`, a frame of `lanes` floats (channel 0 first) after
/// another: eight frames at a time with shuffles, the last few (count not
/// a multiple of 8) one by one. `lanes` is 8 (AVX) or 16 (AVX-512 F).
void crosspoint_frames_from_channels(float *const *channels, int lanes, size_t offset, size_t count, float *frames);

/// The inverse: `count` frames of `lanes` floats back into frames
/// `offset` … of `channels[0 … lanes − 1]`.
void crosspoint_channels_from_frames(const float *frames, float *const *channels, int lanes, size_t offset, size_t count);

#endif
