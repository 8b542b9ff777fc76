import MixRows

/// Audio thread: the sources' gains before the matrix, sixteen sources at
/// a time, on the SIMD path's own build.
extension SourceGains {
    /// The gains of the sixteen sources from `first`, a lane each: the
    /// product of their gain blocks (volume, gates, polarity), alone and
    /// through each side of a pan; for a linked pair's member, its share of
    /// the balance instead, into every output (`RampBlock.Role.link`),
    /// crossfaded by the link's ramp. The scalar form's operations in its
    /// order, so each lane gives its bits (`SourceFoldTests`: the kernel's
    /// `foldSource`, kept as the plain form). Lanes past the last source
    /// fold what their slots hold, which no row reads.
    @_noLocks
    func fold(first: Int) {
        typealias V = SIMD16<Float>
        // The gate blocks come last: what the meter reads is the product
        // before them (the same multiplications in the same order, so the
        // mix is bit-exact with or without meters).
        let one = V(repeating: 1)
        var product = one
        for b in 0..<heard { product *= lanes(gainBases[b] &+ first) }
        let metered = product
        for b in heard..<blocks { product *= lanes(gainBases[b] &+ first) }
        let position = panBase >= 0 ? lanes(panBase &+ first) : V()
        let pan = panLaw.gains(pan: position)
        var (single, toLeft, toRight) = (one, pan.left, pan.right)
        let link = linkBase >= 0 ? lanes(linkBase &+ first) : V()
        if anyLane(link .!= V()) {
            // An even lane (sources are 0-based here, and chunks start even)
            // is a pair's left member: min(1, 1 − position); an odd one
            // min(1, 1 + position).
            let side = V(-1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1)
            var balance = one + side * position
            balance.replace(with: one, where: balance .> one)
            // Linked: exactly the balance (bit-exact at b = 0); part way: a
            // crossfade, which leaves an unlinked lane (link 0) exactly as it was.
            let whole = link .== one
            single = (single + link * (balance - single)).replacing(with: balance, where: whole)
            toLeft = (toLeft + link * (balance - toLeft)).replacing(with: balance, where: whole)
            toRight = (toRight + link * (balance - toRight)).replacing(with: balance, where: whole)
        }
        UnsafeMutableRawPointer(mono + first).storeBytes(of: product * single, as: V.self)
        UnsafeMutableRawPointer(meter + first).storeBytes(of: metered * single, as: V.self)
        UnsafeMutableRawPointer(left + first).storeBytes(of: product * toLeft, as: V.self)
        UnsafeMutableRawPointer(right + first).storeBytes(of: product * toRight, as: V.self)
    }

    /// Sixteen values from slot `i`.
    @inline(__always) @_noLocks
    func lanes(_ i: Int) -> SIMD16<Float> { UnsafeRawPointer(value + i).loadUnaligned(as: SIMD16<Float>.self) }
}
