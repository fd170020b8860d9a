import ABRLab
import ABRLabPlayerKit

extension BufferTimeline {
    public static let csvHeader = CSVRow.line([
        "time_s", "buffer_s", "buffer_state", "progress", "fill_rate_s_per_s", "likely_to_keep_up", "network_active",
    ])

    /// A CSV file of `samples`, header included.
    public static func csvText(_ samples: [Sample]) -> String {
        var text = csvHeader
        for sample in samples { text += sample.csvLine }
        return text
    }
}

extension BufferTimeline.Sample {
    /// The sample as one CSV row under `BufferTimeline.csvHeader`, with its line ending.
    public var csvLine: String {
        var row = CSVRow()
        row.add(timeSeconds)
        row.add(bufferSeconds)
        row.add(state.rawValue)
        row.add(progress)
        row.add(fillRateSecondsPerSecond)
        row.add(isLikelyToKeepUp ? "true" : "false")
        row.add(isNetworkActive ? "true" : "false")
        return row.line
    }
}
