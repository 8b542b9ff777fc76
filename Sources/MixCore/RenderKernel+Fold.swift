/// Audio thread: folding source, output and master gains into one gain per
/// crosspoint, and keeping each output's list of the inputs in use.
extension RenderKernel {
    /// Recomputes the folded gains that some change touched: sources, outputs,
    /// then each dirty row; a row that ramped last period and is not dirty
    /// now settles (its start becomes its end).
    @inlinable @_noLocks
    mutating func refold() {
        if anySourceDirty {
            for chunk in 0..<(inputStride / lanes) where sourceChunkDirty[chunk] {
                sourceChunkDirty[chunk] = false
                foldSources(chunk: chunk)
            }
            anySourceDirty = false
            allRowsDirty = true
        }
        if outputGainsDirty {
            var master: Float = 1
            for b in 0..<masterGains { master *= value[gainBases[sourceGains + outputGains + b]] }
            // Sixteen outputs a step (their blocks are padded to 16), each
            // product in the same order as one by one.
            typealias V = SIMD16<Float>
            var m = 0
            while m < outputs {
                var gain = V(repeating: master)
                for b in 0..<outputGains {
                    gain *= UnsafeRawPointer(value + (gainBases[sourceGains &+ b] &+ m)).loadUnaligned(as: V.self)
                }
                UnsafeMutableRawPointer(outputGain + m).storeBytes(of: gain, as: V.self)
                m &+= V.scalarCount
            }
            outputGainsDirty = false
        }
        guard anyRowDirty || allRowsDirty || rampingRows > 0 else { return }
        var ramping = 0
        for m in 0..<outputs {
            if allRowsDirty || rowDirty[m] {
                rowDirty[m] = false
                if fold(row: m) { ramping += 1 }
            } else if rowRamping[m] {
                settle(row: m)
            }
        }
        rampingRows = ramping
        anyRowDirty = false
        allRowsDirty = false
    }

    /// Source n's gain before the matrix (the product of its gain blocks:
    /// volume, gates, polarity), alone and through each side of a pan; for
    /// a linked pair's member, its share of the balance instead, into every
    /// output (`RampBlock.Role.link`), crossfaded by the link's ramp.
    @inlinable @_noLocks
    mutating func foldSource(_ n: Int) {
        // The gate blocks come last: what the meter reads is the product
        // before them (the same multiplications in the same order, so the
        // mix is bit-exact with or without meters).
        var mono: Float = 1
        let heard = sourceGains - sourceGates
        for b in 0..<heard { mono *= value[gainBases[b] + n] }
        let metered = mono
        for b in heard..<sourceGains { mono *= value[gainBases[b] + n] }
        let position = panBase >= 0 ? value[panBase + n] : 0
        let pan = panLaw.gains(pan: position)
        var (single, left, right) = (Float(1), pan.left, pan.right)
        let link = linkBase >= 0 ? value[linkBase + n] : 0
        if link != 0 {
            // n is 0-based: an even n is a pair's left member (source 1, 3, …).
            let balance = n & 1 == 0 ? min(1, 1 - position) : min(1, 1 + position)
            if link == 1 {
                (single, left, right) = (balance, balance, balance) // exactly: bit-exact at b = 0
            } else {
                single += link * (balance - single)
                left += link * (balance - left)
                right += link * (balance - right)
            }
        }
        sourceMono[n] = mono * single
        sourceMeter[n] = metered * single
        sourceLeft[n] = mono * left
        sourceRight[n] = mono * right
    }

    /// Recomputes output m's gains at the end of the period (crosspoint ·
    /// source · pan side · output), makes the old end the start, and returns
    /// whether any gain moves in this period. Rebuilds the row's list of
    /// inputs in use if that set changed.
    @inlinable @_noLocks
    mutating func fold(row m: Int) -> Bool {
        let row = m * inputStride
        let source: UnsafeMutablePointer<Float>
        switch sides[m] {
        case .mono: source = sourceMono
        case .left: source = sourceLeft
        case .right: source = sourceRight
        }
        let (moving, usageChanged) = foldGains(row: m, crosspoints: value + crosspointBase + row, source: source)
        if usageChanged { relist(row: m) }
        compact(row: m)
        rowRamping[m] = moving
        return moving
    }

    /// A row that ramped last period and did not move since: its start is its
    /// end, and crosspoints that reached 0 leave its list.
    @inlinable @_noLocks
    mutating func settle(row m: Int) {
        typealias V = SIMD8<Float>
        typealias I = SIMD8<Int32>
        let row = m * inputStride
        let yes = I(repeating: -1)
        var usage = I()
        var o = 0
        while o < inputStride {
            let g = UnsafeRawPointer(gainEnd + row + o).loadUnaligned(as: V.self)
            UnsafeMutableRawPointer(gainStart + row + o).storeBytes(of: g, as: V.self)
            UnsafeMutableRawPointer(gainDelta + row + o).storeBytes(of: V(), as: V.self)
            let used = I().replacing(with: yes, where: g .!= V())
            let before = UnsafeRawPointer(inUse + row + o).loadUnaligned(as: I.self)
            usage |= used ^ before
            UnsafeMutableRawPointer(inUse + row + o).storeBytes(of: used, as: I.self)
            o += 8
        }
        if usage != I() { relist(row: m) }
        compact(row: m)
        rowRamping[m] = false
    }

    /// Copies output m's gains of the inputs in use into list order (rows
    /// that use only some inputs).
    @inlinable @_noLocks
    mutating func compact(row m: Int) {
        // A row using every input is read in place (list order = input order).
        guard activeCount[m] < inputs else { return }
        let list = activeInputs + m * inputs
        let starts = gainStart + m * inputStride, deltas = gainDelta + m * inputStride
        let toStart = compactStart + m * inputs, toDelta = compactDelta + m * inputs
        for j in 0..<activeCount[m] {
            let n = Int(list[j])
            toStart[j] = starts[n]
            toDelta[j] = deltas[n]
        }
    }

    /// Rebuilds output m's list of inputs in use.
    @inlinable @_noLocks
    mutating func relist(row m: Int) {
        let used = inUse + m * inputStride
        let list = activeInputs + m * inputs
        var count = 0
        for n in 0..<inputs where used[n] != 0 {
            list[count] = Int32(truncatingIfNeeded: n)
            count += 1
        }
        if activeCount[m] == inputs { denseRows -= 1 }
        if count == inputs { denseRows += 1 }
        activeCount[m] = count
        gatheredValid[m] = false
    }
}
