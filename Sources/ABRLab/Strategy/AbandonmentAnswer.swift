/// What an abandonment check answers: a lower level to abandon the download for, or to go on,
/// optionally with when the next check can matter.
public struct AbandonmentAnswer: Equatable, Sendable {
    /// 0-based level to abandon to (below the level being downloaded); `nil` goes on.
    public var level: Int?
    /// When to check again if the download goes on.
    public var recheck: AbandonmentRecheck

    public init(level: Int? = nil, recheck: AbandonmentRecheck = .nextStep) {
        self.level = level
        self.recheck = recheck
    }

    /// Goes on and checks again at the next progress step.
    public static let goOn = AbandonmentAnswer()

    /// Abandons the download; the segment is decided again.
    public static func abandon(to level: Int) -> AbandonmentAnswer { AbandonmentAnswer(level: level) }
}
