/// What a strategy did that ended its session: the error it threw, or an answer the session
/// refuses. `session` names the strategy and trace as every message does; segments are 0-based
/// here and 1-based in the text, as in every output.
public enum StrategyFailure: Equatable, Sendable {
    /// The strategy threw; `error` is its description, `segment` nil while the session was
    /// being set up.
    case threw(error: String, segment: Int?, trace: String)
    /// A request asked to wait a negative or non-finite time before the segment.
    case delayRefused(session: String, segment: Int, delaySeconds: Double)
    /// A request asked for a playback rate on a profile that plays at 1×.
    case rateWithoutLive(session: String, segment: Int)
    /// A playback rate outside ``LiveSettings/playbackRateRange``: with a request (`atSeconds`
    /// nil) or at a playback update at `atSeconds` of session time.
    case rateOutOfRange(session: String, segment: Int, rate: Double, atSeconds: Double?)
    /// The abandonment check returned a level that is not below the one downloading.
    case abandonmentLevelNotLower(session: String, level: Int, downloadingLevel: Int)
    /// The abandonment check asked to be called again at a NaN point of the download.
    case recheckAtNaN(session: String, segment: Int)

    /// The one line every face reports.
    public var message: String {
        switch self {
        case .threw(let error, let segment, let trace):
            "\(error) (\(segment.map { "segment \($0 + 1) of \(trace)" } ?? "setting up \(trace)"))"
        case .delayRefused(let session, let segment, let delay):
            "\(session): asked for a delay of \(NumberText.readable(delay)) s before segment \(segment + 1); delays are finite and ≥ 0"
        case .rateWithoutLive(let session, let segment):
            "\(session): asked for a playback rate before segment \(segment + 1); rates need the live profile"
        case .rateOutOfRange(let session, let segment, let rate, nil):
            "\(session): asked for a playback rate of \(NumberText.readable(rate)) before segment \(segment + 1); rates are 0.5…2"
        case .rateOutOfRange(let session, let segment, let rate, let seconds?):
            "\(session): asked for a playback rate of \(NumberText.readable(rate)) at \(NumberText.readable(seconds)) s (segment \(segment + 1)); rates are 0.5…2"
        case .abandonmentLevelNotLower(let session, let level, let downloading):
            "\(session): the abandonment check returned level \(level) while downloading level \(downloading); it must return a lower level or nothing"
        case .recheckAtNaN(let session, let segment):
            "\(session): the abandonment check asked to recheck at NaN while downloading segment \(segment + 1)"
        }
    }
}
