/// When an abandonment check needs to run again during the same download.
///
/// A check that finds no reason to abandon may also say that none can arise before the download
/// reaches some point; the emulator then skips the checks in between. Every condition must be a
/// necessary one for abandoning: a strategy derives it from how its own check reads the
/// progress, so skipping never changes a result (`--check-every-step` verifies that). The check
/// runs again at the first progress step that meets all of them.
public struct AbandonmentRecheck: Equatable, Sendable {
    /// No check before ``DownloadProgress/elapsedSeconds`` reaches this.
    public var elapsedSeconds: Double
    /// No check before ``DownloadProgress/projectedSeconds`` exceeds this.
    public var projectedSeconds: Double

    /// Slack the emulator gives each condition towards checking early, so rounding in the
    /// strategy's arithmetic cannot skip the step that would abandon.
    public static let slackSeconds = 1e-6

    /// Checks at the next progress step: what a check that says nothing asks for.
    public static let nextStep = AbandonmentRecheck()
    /// No more checks during this download.
    public static let never = AbandonmentRecheck(elapsedSeconds: .infinity)

    public init(elapsedSeconds: Double = -.infinity, projectedSeconds: Double = -.infinity) {
        self.elapsedSeconds = elapsedSeconds
        self.projectedSeconds = projectedSeconds
    }

    /// Whether no condition is NaN.
    public var isValid: Bool { !elapsedSeconds.isNaN && !projectedSeconds.isNaN }

    /// Whether a check this far into the download may run: the first condition of
    /// ``isDue(_:)``, which needs nothing else of the progress, so a step that fails it is
    /// passed without building one.
    @inline(__always)
    public func isDue(afterSeconds elapsedSeconds: Double) -> Bool {
        elapsedSeconds >= self.elapsedSeconds - Self.slackSeconds
    }

    /// Whether the check runs at a step with this progress.
    public func isDue(_ progress: DownloadProgress) -> Bool {
        guard isDue(afterSeconds: progress.elapsedSeconds) else { return false }
        return projectedSeconds == -.infinity || progress.projectedSeconds > projectedSeconds - Self.slackSeconds
    }
}
