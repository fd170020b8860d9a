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
        switch self {
        case .perSegment(let model), .wholeSession(let model):
            let scores = model.segmentScores(result, ladder: video.ladder)
            return (SessionMetrics(result: result, qoe: model, ladder: video.ladder, segmentScores: scores).qoeTotal, scores)
        case .script(let model):
            // As compare: the script's scores, summed by the metrics of the linear placeholder.
            let scores = try model.segmentScores(result, video: video, seed: seed)
            return (SessionMetrics(result: result, qoe: .linear, ladder: video.ladder, segmentScores: scores).qoeTotal, scores)
        }
    }
}
