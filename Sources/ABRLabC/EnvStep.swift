import ABRLab

/// What one step of a session gave: the reward, whether it ended (or was cut short), and the scores known then.
struct EnvStep {
    var reward: Double
    var terminated: Bool
    /// The episode reached its step limit before the session ended.
    var truncated = false
    /// The segment's QoE score when it is known at this step (always for per-segment models,
    /// at the end for whole-session ones).
    var segmentScore: Double?
    /// The session's `qoe_total`, at its last step.
    var qoeTotal: Double?
}
