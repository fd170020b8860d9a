// The dash.js 5.1.1 settings its ABR reads, with their defaults (core/Settings.js:1137-1458; the ABR block
// :1328-1405, buffer :1203-1207, abandonLoadTimeout :1143, liveCatchup). Spec section A.4, B, C.3, D.

/// dash.js's throughput averaging modes (streaming/constants/Constants.js THROUGHPUT_CALCULATION_MODES).
public enum DashJSAveragingMode: String, Sendable, CaseIterable {
    case ewma = "throughputCalculationModeEwma"
    case zlema = "throughputCalculationModeZlema"
    case arithmeticMean = "throughputCalculationModeArithmeticMean"
    case byteSizeWeightedArithmeticMean = "throughputCalculationModeByteSizeWeightedArithmeticMean"
    case dateWeightedArithmeticMean = "throughputCalculationModeDateWeightedArithmeticMean"
    case harmonicMean = "throughputCalculationModeHarmonicMean"
    case byteSizeWeightedHarmonicMean = "throughputCalculationModeByteSizeWeightedHarmonicMean"
    case dateWeightedHarmonicMean = "throughputCalculationModeDateWeightedHarmonicMean"
}

/// One rule's `abr.rules.<name>` block.
public struct DashJSRuleSetting: Sendable, Equatable {
    public var active: Bool
    public var priority: Double = 0.5
}

public struct DashJSSettings: Sendable, Equatable {
    public var throughputRule = DashJSRuleSetting(active: true)
    public var bolaRule = DashJSRuleSetting(active: true)
    public var insufficientBufferRule = DashJSRuleSetting(active: true)
    public var switchHistoryRule = DashJSRuleSetting(active: true)
    public var droppedFramesRule = DashJSRuleSetting(active: false)
    public var abandonRequestsRule = DashJSRuleSetting(active: true)
    public var l2ARule = DashJSRuleSetting(active: false)
    public var loLPRule = DashJSRuleSetting(active: false)

    public var insufficientBufferThroughputSafetyFactor = 0.7
    public var insufficientBufferSegmentIgnoreCount = 2
    public var switchHistorySampleSize = 8
    public var switchHistorySwitchPercentageThreshold = 0.075
    public var droppedFramesMinimumSampleSize = 375.0
    public var droppedFramesPercentageThreshold = 0.15
    public var abandonDurationMultiplier = 1.8
    public var abandonMinSegmentDownloadTimeThresholdMs = 500.0
    public var abandonMinThroughputSamplesThreshold = 6

    public var averagingMode = DashJSAveragingMode.ewma
    public var bandwidthSafetyFactor = 0.9
    public var useResourceTimingApi = true
    public var useDeadTimeLatency = true
    public var sampleSizeLive = 3
    public var sampleSizeVod = 4
    public var enableSampleSizeAdjustment = true
    public var decreaseScale = 0.7
    public var increaseScale = 1.3
    public var maxMeasurementsToKeep = 20
    public var averageLatencySampleAmount = 4
    public var throughputSlowHalfLifeSeconds = 8.0
    public var throughputFastHalfLifeSeconds = 3.0
    public var latencySlowHalfLifeCount = 2.0
    public var latencyFastHalfLifeCount = 1.0
    public var weightDownloadTimeMultiplicationFactor = 0.0015
    public var cacheLoadThresholdVideoMs = 10.0

    public var bufferTimeDefaultSeconds = 18.0
    public var abandonLoadTimeoutMs = 10_000.0
    public var autoSwitchBitrate = true

    public var catchupEnabled: Bool?
    public var catchupMode = "liveCatchupModeDefault"
    public var catchupPlaybackRateMin: Double?
    public var catchupPlaybackRateMax: Double?
    public var catchupMaxDriftSeconds: Double?
    public var catchupPlaybackBufferMinSeconds: Double? = 0.5

    public init() {}
}
