/// BOLA's objective as Sabre's BOLA and BOLA-E weigh levels, A = Vp·(gp + u) against the buffer
/// per bit: the level a decision picks, and the abandonment checks (`Strategies/sabre/lib/bola_abandon.lua`)
/// — the lower level a download is abandoned for and, when it goes on, when it can first be
/// abandoned, so the emulator skips the checks before that. Kept by the strategy for the session,
/// `vp` updated where the algorithm changes it, so no check builds it anew.
///
/// Both abandon from level c to a lower q only if q's copy of the segment, o_q = size·b_q/b_c
/// bits, is smaller than what is left, r, and (A_q − β)/o_q > (A_c − β)/r, with β the buffer the
/// check reads (ms): that is when β < θ_q = (r·A_q − o_q·A_c)/(r − o_q). While A_c ≥ A_q, θ_q
/// grows with r, and r only shrinks during a download, so no later step abandons while β stays at
/// or above the largest θ_q of now; β only falls as the download goes on, which gives the time to
/// check again. Spiteri, Urgaonkar and Sitaraman, INFOCOM 2016, doi:10.1109/INFOCOM.2016.7524428.
struct SabreBOLAScores: Sendable {
    var vp: Double
    let gp: Double
    let utilities: [Double]
    let bitratesKbps: [Double]

    /// Before the session is set up.
    static let unset = SabreBOLAScores(vp: 0, gp: 0, utilities: [], bitratesKbps: [])

    /// Rounding allowance before the bound says a download can never be abandoned.
    static let slackMs = 1e-3

    /// The level that maximises (Vp·(u + gp) − `levelMs`)/bitrate, the first of equals.
    func bestLevel(levelMs: Double) -> Int {
        var level = 0
        var best: Double?
        for candidate in bitratesKbps.indices {
            let score = (vp * (utilities[candidate] + gp) - levelMs) / bitratesKbps[candidate]
            if best.map({ score > $0 }) ?? true {
                level = candidate
                best = score
            }
        }
        return level
    }

    /// (A_c − `bufferMs`)/`bits` of the level `current` being downloaded, the score a lower level
    /// must beat.
    func score(current: Int, bufferMs: Double, bits: Double) -> Double {
        (vp * (gp + utilities[current]) - bufferMs) / bits
    }

    /// The 0-based level below `current` to abandon for, or `nil`: the first whose copy is
    /// smaller than `leftBits` and whose (A_q − buffer)/o_q beats `score` and every level before
    /// it that did.
    func lowerLevel(current: Int, sizeBits: Double, leftBits: Double, bufferMs: Double, score: Double) -> Int? {
        var best: Int?
        var score = score
        for level in 0..<current {
            let otherBits = sizeBits * bitratesKbps[level] / bitratesKbps[current]
            let other = (vp * (gp + utilities[level]) - bufferMs) / otherBits
            if otherBits < leftBits, other > score {
                best = level
                score = other
            }
        }
        return best
    }

    /// The largest θ_q (ms) over the levels below `current` whose copy is smaller than
    /// `remainingBits`: −∞ when there is none, `nil` when some A_q exceeds A_c (no bound then).
    func bufferThreshold(current: Int, sizeBits: Double, remainingBits: Double) -> Double? {
        let top = vp * (gp + utilities[current])
        var threshold = -Double.infinity
        for level in 0..<current {
            let a = vp * (gp + utilities[level])
            if a > top { return nil }
            let otherBits = sizeBits * bitratesKbps[level] / bitratesKbps[current]
            if otherBits < remainingBits {
                let theta = (remainingBits * a - otherBits * top) / (remainingBits - otherBits)
                if theta > threshold { threshold = theta }
            }
        }
        return threshold
    }

    /// The recheck for a check that reads β = max(0, buffer + `offsetMs`), where the buffer falls
    /// by the time elapsed until it is 0 and `offsetMs` is fixed during the download: the next
    /// step while β may already be below `threshold`, else the elapsed time at which it can be,
    /// or never.
    static func recheck(_ progress: DownloadProgress, threshold: Double?, offsetMs: Double) -> AbandonmentRecheck {
        guard let threshold else { return .nextStep }
        if threshold < SabreArithmetic.larger(0, offsetMs) - slackMs { return .never }
        let bufferMs = progress.bufferSeconds * 1000
        if bufferMs <= 0 { return .nextStep }
        return AbandonmentRecheck(elapsedSeconds: progress.elapsedSeconds + (bufferMs + offsetMs - threshold) / 1000)
    }
}
