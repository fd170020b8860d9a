/// Why a session could not finish.
public enum EmulationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The trace's bandwidth is zero everywhere, so no download can ever finish.
    case traceDeliversNoData(trace: String)
    /// Simulated time passed the profile's limit.
    case sessionTimeLimit(trace: String, limitSeconds: Double)
    /// The video has fewer segments than the profile plays.
    case videoTooShort(video: String, segments: Int, needed: Int)
    /// The strategy picked a level outside the ladder.
    case levelOutOfRange(strategy: String, level: Int, levelCount: Int)
    /// The strategy failed; the message names where.
    case strategyFailed(message: String)
    /// The abandonment check abandoned one segment ``SessionEmulator/maxAbandonmentsPerSegment``
    /// times; `check` names it (`file:line` for a script, else the strategy's id) and `segment`
    /// is 0-based.
    case abandonmentLimit(check: String, segment: Int, trace: String)

    public var description: String {
        switch self {
        case .traceDeliversNoData(let trace):
            "\(trace): the trace delivers no data (zero bandwidth everywhere); no segment can be downloaded"
        case .sessionTimeLimit(let trace, let limit):
            "\(trace): the session ran past \(limit) s of simulated time; the trace is too slow to finish it, or the strategy abandons every request"
        case .videoTooShort(let video, let segments, let needed):
            "\(video): the video has \(segments) segments but the session plays \(needed)"
        case .levelOutOfRange(let strategy, let level, let count):
            "\(strategy): chose level \(level); levels are 0…\(count - 1)"
        case .strategyFailed(let message):
            message
        case .abandonmentLimit(let check, let segment, let trace):
            "\(check): abandoned segment \(segment + 1) \(SessionEmulator.maxAbandonmentsPerSegment) times "
                + "(the limit per segment) on \(trace)"
        }
    }
}
