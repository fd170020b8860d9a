import ABRLab
import ABRLabLua

/// How an environment turns segments into rewards.
enum EnvScoring: Sendable {
    /// A model whose segment score needs only the segment and the one before it (`linear`,
    /// `log`, `hd`): each step's reward is its segment's score.
    case perSegment(QoEModel)
    /// A built-in model that scores the finished session (`sabre`'s time average, `nqoe`'s
    /// chunks), or any built-in model on a profile with a live warm-up (whose rows count only
    /// once the session knows where the warm-up ended): every reward is 0 but the last, which
    /// is the session's `qoe_total`.
    case wholeSession(QoEModel)
    /// A Lua QoE script, which also scores the finished session: rewarded as `wholeSession`.
    case script(LuaQoEModel)

    var name: String {
        switch self {
        case .perSegment(let model), .wholeSession(let model): model.name
        case .script(let model): model.name
        }
    }

    /// The session's `qoe_total` and its per-segment scores, as `abrlab compare` computes them
    /// (``SessionMetrics``: a warm-up's rows left out).
    func score(_ result: SessionResult, video: Video, seed: UInt64) throws -> (total: Double, segments: [Double]) {
        let scored = switch self {
        case .perSegment(let model), .wholeSession(let model):
            try SessionMetrics.scored(result, qoe: model, script: nil, video: video, seed: seed)
        case .script(let model):
            // As compare: the script's scores, summed under the built-in model it keeps beside (linear).
            try SessionMetrics.scored(result, qoe: .linear, script: model, video: video, seed: seed)
        }
        return (scored.metrics.qoeTotal, scored.segmentScores)
    }
}
