import ABRLab

/// What one step of a session gave: the reward, whether it ended, and the segment it delivered.
struct EnvStep {
    var reward: Double
    var terminated: Bool
    /// The segment this step delivered; `nil` when none arrived (a live seek skipped it).
    var segment: SegmentRecord?
    /// The segment's QoE score when it is known at this step (always for per-segment models,
    /// at the end for whole-session ones).
    var segmentScore: Double?
    /// The session's `qoe_total`, at its last step.
    var qoeTotal: Double?
}
