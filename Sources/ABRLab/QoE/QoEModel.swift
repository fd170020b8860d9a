import Foundation

/// How a session's quality of experience is scored, segment by segment:
/// `utility(level) − rebufferPenalty · rebuffer_s − smoothnessPenalty · |utility(level) − utility(previous level)|`
/// (the first segment has no switch penalty).
///
/// The kinds follow Pensieve (Mao et al., SIGCOMM 2017, doi:10.1145/3098822.3098843) and MPC
/// (Yin et al., SIGCOMM 2015, doi:10.1145/2785956.2787486).
public struct QoEModel: Equatable, Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// Utility is the bitrate in Mbps.
        case linear
        /// Utility is ln(bitrate / lowest bitrate).
        case log
        /// Utility maps levels to fixed scores favouring HD (1, 2, 3, 12, 15, 20 for six levels).
        case hd
        /// Sabre's time-average score (Spiteri, Nguyen, Sitaraman, MMSys 2018,
        /// doi:10.1145/3204949.3204953): (Σ ln(R / R_min) − γp · rebuffer / segment duration) ×
        /// segment duration / session time; no switch penalty. The rebuffer penalty is γp.
        case sabre
        /// The ACM MMSys 2020 Twitch low-latency challenge's NQoE, per chunk of a live session
        /// (`live` profile only): `α·R − β·E − γ·L − σ·|1 − P|` summed over chunks, minus
        /// `µ·|R(s+1) − R(s)|` summed over segment changes; R bitrate kbps, E rebuffer s since the
        /// previous chunk, L live latency s, P playback rate, each taken when the chunk arrives;
        /// α the chunk duration s, β the ladder's top bitrate kbps, γ 0.005 when L ≤ 1.1 s else
        /// 0.01, σ the ladder's lowest bitrate kbps; µ is the smoothness penalty (0.02 by default).
        case nqoe
    }

    public var kind: Kind
    /// Penalty per second of rebuffering.
    public var rebufferPenalty: Double
    /// Penalty per unit of utility change between consecutive segments.
    public var smoothnessPenalty: Double
    /// Utilities per level for the HD model, lowest level first.
    public var hdUtilities: [Double]
    /// Sabre's γp: the weight of one segment duration of stall in its time-average score (the
    /// `sabre` model's rebuffer penalty, and the `time_avg_score` column of every model).
    public var gammaP: Double

    public init(kind: Kind, rebufferPenalty: Double? = nil, smoothnessPenalty: Double? = nil, hdUtilities: [Double]? = nil, gammaP: Double = 5) {
        self.kind = kind
        self.gammaP = gammaP
        self.rebufferPenalty = kind == .sabre ? gammaP : rebufferPenalty ?? Self.defaultRebufferPenalty(kind)
        self.smoothnessPenalty = smoothnessPenalty ?? (kind == .nqoe ? Self.nqoeSwitchPenalty : 1)
        self.hdUtilities = hdUtilities ?? [1, 2, 3, 12, 15, 20]
    }

    /// Pensieve's weights: 4.3 for linear (its top bitrate in Mbps), 2.66 for log, 8 for HD;
    /// NQoE's β is the ladder's top bitrate, so its value here is unused (0).
    public static func defaultRebufferPenalty(_ kind: Kind) -> Double {
        switch kind {
        case .linear: 4.3
        case .log: 2.66
        case .hd: 8
        case .sabre: 5
        case .nqoe: 0
        }
    }

    /// NQoE's µ, the weight of a kbps of bitrate change between segments.
    public static let nqoeSwitchPenalty = 0.02

    public static let linear = QoEModel(kind: .linear)
    public static let log = QoEModel(kind: .log)
    public static let hd = QoEModel(kind: .hd)

    public var name: String { kind.rawValue }

    /// Checks that the model can score a ladder (the HD model needs one utility per level).
    public func validate(ladder: [BitrateLevel]) throws(InputError) {
        if kind == .hd, hdUtilities.count != ladder.count {
            throw InputError(settings: [.qoe, .video], "the hd QoE model has \(hdUtilities.count) utilities but the ladder has \(ladder.count) levels")
        }
    }

    /// Checks that the model can score sessions of `profile` over `ladder`: as ``validate(ladder:)``,
    /// and NQoE, which is defined on a live stream's chunks and latency, only on a live profile.
    public func validate(ladder: [BitrateLevel], profile: EmulationProfile) throws(InputError) {
        try validate(ladder: ladder)
        if kind == .nqoe, profile.liveSettings == nil {
            throw InputError(setting: .qoe, "the nqoe model scores live sessions; use it with \(Setting.profile) live, not \(profile.name)")
        }
    }

    /// Utility of `level` on `ladder`.
    public func utility(level: Int, ladder: [BitrateLevel]) -> Double {
        switch kind {
        case .linear: ladder[level].bitrateKbps / 1000
        case .nqoe: ladder[level].bitrateKbps
        case .log, .sabre: Foundation.log(ladder[level].bitrateKbps / ladder[0].bitrateKbps)
        case .hd: hdUtilities[level]
        }
    }

    /// Score of one segment given the previous segment's level (`nil` for the first).
    public func segmentScore(level: Int, previousLevel: Int?, rebufferSeconds: Double, ladder: [BitrateLevel]) -> Double {
        let current = utility(level: level, ladder: ladder)
        let switchCost = kind == .sabre ? 0 : previousLevel.map { abs(current - utility(level: $0, ladder: ladder)) } ?? 0
        return current - rebufferPenalty * rebufferSeconds - smoothnessPenalty * switchCost
    }

    /// Per-segment scores of a session, in order. For `sabre` each segment's share of the
    /// time-average score, so they add up to it.
    public func segmentScores(_ result: SessionResult, ladder: [BitrateLevel]) -> [Double] {
        if kind == .nqoe { return nqoeScores(result, ladder: ladder) }
        guard kind == .sabre else { return segmentScores(result.segments, ladder: ladder) }
        let playback = result.playback
        let factor = playback?.timeAverageFactor ?? 0
        return result.segments.map { segment in
            factor * (utility(level: segment.level, ladder: ladder) - rebufferPenalty * segment.rebufferSeconds / result.segmentDurationSeconds)
        }
    }

    /// Total score of a session: the sum of its segment scores, or Sabre's time-average score.
    public func sessionScore(_ result: SessionResult, ladder: [BitrateLevel], segmentScores: [Double]) -> Double {
        if kind == .sabre, let playback = result.playback { return playback.timeAverageScore(gammaP: rebufferPenalty) }
        return segmentScores.reduce(0, +)
    }

    /// NQoE per segment: the sum over its chunks, minus the switch penalty into it. A session
    /// without chunk samples (not live) scores only its switches.
    func nqoeScores(_ result: SessionResult, ladder: [BitrateLevel]) -> [Double] {
        var scores = Array(repeating: 0.0, count: result.segments.count)
        let alpha = result.liveChunkSeconds ?? 0
        let beta = ladder[ladder.count - 1].bitrateKbps
        let sigma = ladder[0].bitrateKbps
        // Rows and samples are both in segment order; a seek to the live edge skips indices.
        var row = 0
        for sample in result.liveChunks {
            while row < scores.count, result.segments[row].index < sample.segmentIndex { row += 1 }
            guard row < scores.count, result.segments[row].index == sample.segmentIndex else { continue }
            let gamma = sample.latencySeconds <= 1.1 ? 0.005 : 0.01
            scores[row] += alpha * sample.bitrateKbps - beta * sample.rebufferSeconds
                - gamma * sample.latencySeconds - sigma * abs(1 - sample.playbackRate)
        }
        for (index, pair) in zip(result.segments, result.segments.dropFirst()).enumerated() {
            scores[index + 1] -= smoothnessPenalty * abs(pair.1.bitrateKbps - pair.0.bitrateKbps)
        }
        return scores
    }

    /// Per-segment scores of segments played in order with no session context.
    public func segmentScores(_ segments: [SegmentRecord], ladder: [BitrateLevel]) -> [Double] {
        var previous: Int?
        return segments.map { segment in
            defer { previous = segment.level }
            return segmentScore(level: segment.level, previousLevel: previous, rebufferSeconds: segment.rebufferSeconds, ladder: ladder)
        }
    }
}
