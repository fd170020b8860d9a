/// Where a player in its data phase on a shared link (``LinkGroup``) stops next, at its share.
///
/// Between two changes of the share, a player's period boundaries and progress steps that need
/// no check concern no other player: they are walked in a row, and the group stops the player only
/// where its share may change (its transfer's end, a due abandonment check) or, to keep planning
/// short, after ``maximumQuietSteps`` of them.
struct SharedPlan {
    /// Link time of the stop, seconds.
    let seconds: Double
    /// Events before the stop that change no share.
    let quietSteps: Int
    /// Whether the stop is an event that may change the share; else it is a pause after
    /// ``quietSteps`` quiet events.
    let mayChangeShare: Bool

    /// The most quiet events one plan walks ahead: a change of the share discards the rest.
    static let maximumQuietSteps = 16

    /// The stop after `quietSteps` quiet events that end at link time `seconds`: the event at
    /// `loudSeconds` that may change the share, or a pause there when there is none.
    init(quietSteps: Int, endingAt seconds: Double, loudSeconds: Double?) {
        self.init(seconds: loudSeconds ?? seconds, quietSteps: quietSteps, mayChangeShare: loudSeconds != nil)
    }

    /// A player just moved to link time `seconds`, which the group plans before it reads the stop.
    static func unplanned(at seconds: Double) -> SharedPlan {
        SharedPlan(seconds: seconds, quietSteps: 0, mayChangeShare: true)
    }

    private init(seconds: Double, quietSteps: Int, mayChangeShare: Bool) {
        self.seconds = seconds
        self.quietSteps = quietSteps
        self.mayChangeShare = mayChangeShare
    }
}

extension SharedLinkModel {
    /// The next stop of the transfer in its data phase at `fraction` of the link, from link time
    /// `seconds`; the model does not change.
    mutating func planShared(fromSeconds seconds: Double, fraction: Double) -> SharedPlan {
        var time = seconds
        let (walked, loudSeconds) = walkSharedQuietly(SharedPlan.maximumQuietSteps, fraction: fraction, seconds: &time, through: .infinity, keep: false)
        return SharedPlan(quietSteps: walked, endingAt: time, loudSeconds: loudSeconds)
    }

    /// Walks at most `steps` of the quiet events a plan found while they fall at or before link
    /// time `limitSeconds`, moving `seconds` along; returns how many it walked.
    mutating func walkSharedQuietly(_ steps: Int, fraction: Double, seconds: inout Double, through limitSeconds: Double) -> Int {
        let (walked, loudSeconds) = walkSharedQuietly(steps, fraction: fraction, seconds: &seconds, through: limitSeconds, keep: true)
        precondition(loudSeconds == nil, "a planned quiet event may change the share")
        return walked
    }
}
