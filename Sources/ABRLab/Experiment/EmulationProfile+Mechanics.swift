extension EmulationProfile {
    /// Which player model a session runs and how the network under it is walked, with the
    /// settings each needs: three mechanics, each whole, so a network that does not fit its
    /// buffer cannot be written.
    public enum Mechanics: Equatable, Sendable {
        /// One whole transfer per request over the trace in seconds and bytes, in `fixed_env.py`'s
        /// order; the buffer is one number (`pensieve`, `default`).
        case wholeTransfers(WholeTransferSettings)
        /// Sabre's link (milliseconds and bits, latency pro-rated across period boundaries,
        /// transfers in progress steps that an abandonment check can stop) under a buffer of
        /// whole segments with a partly played head (`sabre`).
        case segmentBuffer(SegmentBufferSettings)
        /// Chunked transfer from a live encoder, chunks flowing only once produced, into a buffer
        /// played at a variable rate behind a moving live edge (`live`).
        case live(LiveSettings)

        /// The mechanic's name: `wholeTransfers`, `segmentBuffer` or `live`.
        public var name: String {
            switch self {
            case .wholeTransfers: "wholeTransfers"
            case .segmentBuffer: "segmentBuffer"
            case .live: "live"
            }
        }
    }

    /// Which buffered segment a request may replace (Sabre's `-r`).
    public enum Replacement: String, Equatable, Sendable, CaseIterable {
        case none
        /// The oldest replaceable segment below the chosen level.
        case left
        /// The newest one.
        case right
    }

    /// Where the request latency of each download comes from.
    public enum Latency: Equatable, Sendable {
        /// The same round trip for every request.
        case fixed(seconds: Double)
        /// The trace's latency at the time of the request; `fallbackSeconds` when it has none.
        case trace(fallbackSeconds: Double)
    }
}
