/// Every array the render kernel owns, in one allocation: made with the
/// mixer on the control side, zeroed, and freed with it. The kernel binds
/// each array once, in its `init`, and the audio thread only reads and
/// writes through those pointers.
///
/// One allocation rather than thirty keeps the kernel's working set together
/// (each array starts on a 64-byte cache line, so a SIMD16 load never
/// straddles two) and makes its lifetime one thing to get right. Where each
/// ramp lives inside the ramp arrays is `RampLayout`'s business; this type
/// only knows how long each array is. The delay lines keep their own
/// allocation: pages of a line that is never used are never touched, so they
/// cost no memory, which zeroing them here would undo.
@usableFromInline
struct KernelArena: ~Copyable {
    /// Where one array lives: its first byte, and how many elements it holds.
    struct Region<Element> {
        let offset: Int
        let count: Int
    }

    /// The arrays, by the kernel's names for them (`RenderKernel` says what each holds).
    let position, value, targetPosition, targetValue, step, ratio: Region<Float>
    let remaining, boundary, movingChunks, periodsToResync, chunkRow: Region<Int32>
    let chunkListed, levelChunk: Region<Bool>
    let rampOutcome: Region<Int8>
    let stageChunk: Region<UInt8>
    let gainBases: Region<Int>
    let sourceMono, sourceMeter, sourceLeft, sourceRight, outputGain, directEnd: Region<Float>
    let directTap: Region<Int32>
    let gainStart, gainDelta, gainEnd, compactStart, compactDelta: Region<Float>
    let inUse, activeInputs: Region<Int32>
    let activeCount: Region<Int>
    let gathered: Region<UnsafeRawPointer>
    let lastInputs: Region<UnsafeRawPointer?>
    let gatheredValid, rowRamping, rowDirty, sourceChunkDirty: Region<Bool>
    let sides: Region<OutputLayout.Side>
    let progress, sixteenths: Region<Float>
    /// Per value of the sources' and the outputs' EQ (`Equalisers.index`):
    /// where the kernel keeps it, a block of `value`; and zeros for a value
    /// the layout has no block for.
    let sourceEQValues, outputEQValues: Region<UnsafePointer<Float>>
    let eqZeros: Region<Float>
    /// The limiters' values (on, ceiling, release, lookahead), and per
    /// output whether it is a member of a stereo pair.
    let limiterValues: Region<UnsafePointer<Float>>
    let pairedOutputs: Region<Int32>

    /// Bytes in all, and the allocation.
    let byteCount: Int
    private let base: UnsafeMutableRawPointer

    /// Every array starts on a cache line.
    static let alignment = 64

    /// An arena for a kernel of the ramps `ramps` lays out, mixing up to
    /// `maxFrames` frames a period.
    init(ramps: RampLayout, maxFrames: Int, sourceEQValues sourceValues: Int, outputEQValues outputValues: Int) {
        let inputs = ramps.inputs, outputs = ramps.outputs
        let slots = ramps.slots, chunks = ramps.slots / RampLayout.lanes
        let inputStride = ramps.inputStride, outputStride = ramps.outputStride
        let gainBlocks = ramps.sourceGainBases.count + ramps.bases(.output, .gain).count + ramps.bases(.master, .gain).count

        var end = 0
        func region<Element>(_ count: Int) -> Region<Element> {
            let offset = (end + Self.alignment - 1) / Self.alignment * Self.alignment
            end = offset + max(1, count) * MemoryLayout<Element>.stride
            return Region(offset: offset, count: count)
        }
        // Ramps, structure-of-arrays, and their chunk bookkeeping.
        (position, value, targetPosition, targetValue) = (region(slots), region(slots), region(slots), region(slots))
        (step, ratio, remaining, boundary) = (region(slots), region(slots), region(slots), region(slots))
        (movingChunks, periodsToResync, chunkListed, levelChunk) =
            (region(chunks), region(chunks), region(chunks), region(chunks))
        (rampOutcome, chunkRow, stageChunk) = (region(chunks), region(chunks), region(chunks))
        gainBases = region(gainBlocks)
        // Folded gains.
        (sourceMono, sourceLeft, sourceRight) = (region(inputStride), region(inputStride), region(inputStride))
        sourceMeter = region(inputStride)
        outputGain = region(outputStride)
        (directEnd, directTap) = (region(inputStride), region(inputStride))
        (gainStart, gainDelta, gainEnd, inUse) = (region(outputs * inputStride), region(outputs * inputStride),
                                                  region(outputs * inputStride), region(outputs * inputStride))
        (activeInputs, compactStart, compactDelta, gathered) =
            (region(outputs * inputs), region(outputs * inputs), region(outputs * inputs), region(outputs * inputs))
        (activeCount, gatheredValid, rowRamping, rowDirty, sides) =
            (region(outputs), region(outputs), region(outputs), region(outputs), region(outputs))
        lastInputs = region(inputs)
        sourceChunkDirty = region(inputStride / RampLayout.lanes)
        // Scratch.
        progress = region(maxFrames)
        sixteenths = region(maxFrames)
        (sourceEQValues, outputEQValues) = (region(sourceValues), region(outputValues))
        eqZeros = region(max(inputStride, outputStride))
        (limiterValues, pairedOutputs) = (region(4), region(outputStride))

        byteCount = end
        base = .allocate(byteCount: max(end, Self.alignment), alignment: Self.alignment)
        // All zeros is 0, false, nil and `.mono`: every array starts cleared
        // (`gathered` is written before it is read).
        base.initializeMemory(as: UInt8.self, repeating: 0, count: max(end, Self.alignment))
    }

    /// The array `region` describes. Bound once per region, in the kernel's `init`.
    func array<Element>(_ region: Region<Element>) -> UnsafeMutablePointer<Element> {
        (base + region.offset).bindMemory(to: Element.self, capacity: max(1, region.count))
    }

    deinit {
        base.deallocate()
    }
}
