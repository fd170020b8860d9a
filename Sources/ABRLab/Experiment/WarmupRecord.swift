/// What a live session's warm-up (``LiveWarmup``) left behind: its rows lead the session's and
/// count in no score, and the stalls it saw count in no summary.
public struct WarmupRecord: Equatable, Sendable {
    /// Session time the pattern started.
    public var seconds: Double
    /// Rows delivered by then: the first `rowCount` of the session's.
    public var rowCount: Int
    /// Stalls that began during those rows' downloads.
    public var stallCount: Int

    public init(seconds: Double, rowCount: Int, stallCount: Int) {
        self.seconds = seconds
        self.rowCount = rowCount
        self.stallCount = stallCount
    }
}
