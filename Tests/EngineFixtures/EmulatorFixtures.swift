import ABRLab

/// Small hand-checkable inputs for emulator tests.
public enum EmulatorFixtures {
    /// Two levels, 1 Mbps and 2 Mbps, CBR, 1 s segments.
    public static func video(segments: Int = 4, segmentSeconds: Double = 1) throws -> Video {
        try Video(
            name: "cbr", segmentDurationSeconds: segmentSeconds,
            ladder: [BitrateLevel(bitrate: 1_000_000, label: "1M"), BitrateLevel(bitrate: 2_000_000, label: "2M")],
            segmentCount: segments
        )
    }

    public static func constantTrace(mbps: Double, seconds: Double = 10, name: String = "flat") throws -> NetworkTrace {
        try NetworkTrace(name: name, periods: [TracePeriod(durationSeconds: seconds, bandwidthBitsPerSecond: mbps * 1_000_000)])
    }

    /// A transparent model: all bandwidth is payload, no latency, start on the first segment.
    public static func idealProfile(maxBufferSeconds: Double = 60, waitStep: Double = 0, startupCountsAsRebuffer: Bool = false) -> EmulationProfile {
        EmulationProfile(
            name: "ideal",
            mechanics: .wholeTransfers(WholeTransferSettings(
                payloadFraction: 1, latency: .fixed(seconds: 0), latencyConsumesTraceTime: false,
                bufferWaitStepSeconds: waitStep, startupThresholdSeconds: 0, startupCountsAsRebuffer: startupCountsAsRebuffer
            )),
            maxBufferSeconds: maxBufferSeconds, segmentsToPlay: nil, maxSessionSeconds: 3600
        )
    }
}

/// Plays a fixed list of levels, then repeats the last one.
public struct ScriptedStrategy: SessionStrategy {
    public var levels: [Int]

    public init(levels: [Int]) { self.levels = levels }

    public func chooseLevel(_ context: DecisionContext) -> Int {
        levels[min(context.segmentIndex, levels.count - 1)]
    }
}
