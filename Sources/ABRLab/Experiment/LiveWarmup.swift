/// A warm-up played before a live session's network pattern, as the Twitch challenge's `run.js`
/// plays ten seconds before it starts the pattern and the recording: the session joins on a
/// link of constant rate, the trace's pattern starts `seconds` later and plays to its end, and
/// the rows delivered before the pattern starts are marked and left out of every score.
public struct LiveWarmup: Equatable, Sendable {
    /// Session time the warm-up lasts; the pattern starts then.
    public var seconds: Double
    /// Rate of the warm-up link.
    public var linkKbps: Double

    /// The challenge's harness asks for "a stable connection of at least 3mbps" before it starts
    /// a pattern (twitchtv/acm-mmsys-2020-grand-challenge `run.js`); 3000 kbps is that floor,
    /// three times the top of the twitch-ll ladder, so warm-up chunks arrive as they are made.
    public static let defaultLinkKbps = 3000.0

    public init(seconds: Double, linkKbps: Double = LiveWarmup.defaultLinkKbps) {
        self.seconds = seconds
        self.linkKbps = linkKbps
    }

    /// The trace period the warm-up plays on: no request latency, as the harness sets none.
    var period: TracePeriod {
        TracePeriod(durationSeconds: seconds, bandwidthBitsPerSecond: linkKbps * 1000, latencySeconds: 0)
    }

    /// Checks the values, naming the option that sets each.
    public func validate() throws(InputError) {
        try Setting.warmupS.check(seconds)
        try Setting.warmupKbps.check(linkKbps)
    }
}
