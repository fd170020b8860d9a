// What dash.js 5.1.1's rules read at a decision (streaming/rules/RulesContext.js:34-105 and the collaborators it
// hands out; spec section E.1). Buffer level is the last BufferLevel metric rounded to ms
// (dash/DashMetrics.js:114-123 with dash/utils/Round10.js).

public struct DashJSRulesContext {
    public var ladder: DashJSLadder
    public var current: DashJSRepresentation
    public var settings: DashJSSettings
    public var throughput: DashJSThroughputModel
    /// `dashMetrics.getCurrentBufferLevel`: the last metric, 3 decimals, 0 without one.
    public var bufferLevelSeconds: Double
    /// `getCurrentBufferState`: `bufferLoaded`, `bufferStalled`, or nil before the first.
    public var bufferState: String?
    public var isDynamic: Bool
    public var lowLatencyMode: Bool
    /// `abandonmentState == 'allowload'`.
    public var allowsLoad: Bool
    public var nowMs: Double
    /// `mediaPlayerModel.getBufferTimeDefault()`: the setting, or the live delay when that is positive and smaller.
    public var bufferTimeDefaultSeconds: Double
    public var playbackRate: Double
    public var currentLiveLatencySeconds: Double
    /// The newest HttpList entry with a response code (`dashMetrics.getCurrentHttpRequest`).
    public var lastHTTPRequest: DashJSHTTPRequest?

    public var safeAverageThroughputKbps: Double { throughput.safeAverageThroughputKbps(settings: settings, isDynamic: isDynamic) }
    public var averageThroughputKbps: Double { throughput.averageThroughputKbps(settings: settings, isDynamic: isDynamic) }
}

/// `Round10.round10(value, -3)`: JS shifts the decimal text of the value ("7.523000000000001" → "…e3"), rounds, shifts back.
/// The text's shifted value and `value * 1000` differ by a few ulps at most, so away from a half both round alike,
/// and an integer below 2^50 shifts back as its division by 1000; only near a half does it go through the text.
func round10Milli(_ value: Double) -> Double {
    let product = value * 1000
    guard abs(product) < 0x1p50, abs(product - product.rounded(.down) - 0.5) > 8 * product.ulp else {
        return round10MilliThroughText(value)
    }
    let rounded = jsRound(product)
    return rounded == 0 ? 0 : rounded / 1000
}

/// ``round10Milli(_:)`` as Round10.js computes it, through the number's text.
func round10MilliThroughText(_ value: Double) -> Double {
    guard value.isFinite else { return value }
    let text = "\(value)"
    let parts = text.split(separator: "e", maxSplits: 1)
    let exponent = parts.count == 2 ? Int(parts[1])! : 0
    guard let shifted = Double("\(parts[0])e\(exponent + 3)") else { return .nan }
    let rounded = jsRound(shifted)
    let roundedText = DashJSNumberText.javaScript(rounded)
    let roundedParts = roundedText.split(separator: "e", maxSplits: 1)
    let roundedExponent = roundedParts.count == 2 ? Int(roundedParts[1])! : 0
    return Double("\(roundedParts[0])e\(roundedExponent - 3)") ?? .nan
}
