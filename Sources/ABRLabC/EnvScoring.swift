import ABRLab
import ABRLabLua

/// How an environment turns segments into rewards.
enum EnvScoring: Sendable {
    /// A model whose segment score needs only the segment and the one before it (`linear`,
    /// `log`, `hd`): each step's reward is its segment's score.
    case perSegment(QoEModel)
    /// A built-in model that scores the finished session (`sabre`'s time average, `nqoe`'s
    /// chunks): every reward is 0 but the last, which is the session's `qoe_total`.
    case wholeSession(QoEModel)
    /// A Lua QoE script, which also scores the finished session: rewarded as `wholeSession`.
    case script(LuaQoEModel)

    var name: String {
        switch self {
        case .perSegment(let model), .wholeSession(let model): model.name
        case .script(let model): model.name
        }
    }

    /// The session's `qoe_total` and its per-segment scores, as `abrlab compare` computes them.
    func score(_ result: SessionResult, video: Video, seed: UInt64) throws -> (total: Double, segments: [Double]) {
        switch self {
        case .perSegment(let model), .wholeSession(let model):
            let scores = model.segmentScores(result, ladder: video.ladder)
            return (model.sessionScore(result, ladder: video.ladder, segmentScores: scores), scores)
        case .script(let model):
            let scores = try model.segmentScores(result, video: video, seed: seed)
            return (scores.reduce(0, +), scores)
        }
    }
}
