import ABRLab
import Foundation

/// Writes network traces in every `TraceFormat`, so a trace set can be converted between formats.
///
/// Numbers are written so that `TraceLoader` reads back the very same `Double`s wherever the
/// format can hold them: CSV keeps everything bit for bit; Pensieve keeps everything but latency;
/// Sabre keeps whole-millisecond traces exactly; Mahimahi resamples (see `mahimahiText`).
public enum TraceWriter {
    /// The trace as the text of a file in `format`.
    public static func text(for trace: NetworkTrace, format: TraceFormat) throws(InputError) -> String {
        switch format {
        case .pensieve: pensieveText(trace)
        case .sabre: sabreText(trace)
        case .mahimahi: try mahimahiText(trace)
        case .csv: csvText(trace)
        }
    }

    /// Writes the trace to `url` in `format`, replacing any file there.
    public static func write(_ trace: NetworkTrace, format: TraceFormat, to url: URL) throws(InputError) {
        let text: String
        do {
            text = try self.text(for: trace, format: format)
        } catch {
            throw InputError(file: TextFile.displayName(url), error.message)
        }
        try TextFile.write(text, to: url)
    }

    /// Pensieve's cooked text. A first line at time 0.0 marks the start and repeats the first
    /// period's bandwidth (Pensieve never reads it); each period then gives its end time and its
    /// bandwidth in Mbit/s, chosen so that `Mbps × 1_000_000` is the trace's bandwidth exactly.
    /// Latency has no place in this format and is dropped.
    public static func pensieveText(_ trace: NetworkTrace) -> String {
        var text = ""
        text.reserveCapacity((trace.periodCount + 1) * 32)
        func mbps(_ bitsPerSecond: Double) -> String {
            NumberText.preimage(of: bitsPerSecond, near: bitsPerSecond / 1_000_000) { $0 * 1_000_000 }.description
        }
        text += "0.0\t\(mbps(trace.bandwidthBitsPerSecond[0]))\n"
        for (end, bandwidth) in zip(trace.periodEndSeconds, trace.bandwidthBitsPerSecond) {
            text += "\(end.description)\t\(mbps(bandwidth))\n"
        }
        return text
    }

    /// Sabre's JSON, one period per line as in Sabre's own files. Durations are differences of
    /// end times in ms, snapped to whole milliseconds when within a billionth; `latency_ms` is
    /// written only when the trace records latency (Sabre's own simulator requires it).
    public static func sabreText(_ trace: NetworkTrace) -> String {
        var text = "[\n"
        text.reserveCapacity(trace.periodCount * 72 + 4)
        var previousEndMilliseconds = 0.0
        for index in 0..<trace.periodCount {
            let endMilliseconds = NumberText.snapped(trace.periodEndSeconds[index] * 1000)
            let bandwidth = trace.bandwidthBitsPerSecond[index]
            let kbps = NumberText.preimage(of: bandwidth, near: bandwidth / 1000) { $0 * 1000 }
            text += "    {\"duration_ms\": \(NumberText.plain(endMilliseconds - previousEndMilliseconds)), "
            text += "\"bandwidth_kbps\": \(NumberText.plain(kbps))"
            if let latencySeconds = trace.latencySeconds?[index] {
                let milliseconds = NumberText.preimage(of: latencySeconds, near: latencySeconds * 1000) { $0 / 1000 }
                text += ", \"latency_ms\": \(NumberText.plain(milliseconds))"
            }
            text += index == trace.periodCount - 1 ? "}\n" : "},\n"
            previousEndMilliseconds = endMilliseconds
        }
        return text + "]\n"
    }

    /// CSV with period end times in seconds (`end_s`), bandwidth in bit/s and, when recorded, latency in seconds:
    /// units the trace already uses, so nothing is rounded.
    public static func csvText(_ trace: NetworkTrace) -> String {
        var text = trace.latencySeconds == nil ? "end_s,bandwidth_bps\n" : "end_s,bandwidth_bps,latency_s\n"
        text.reserveCapacity(trace.periodCount * 40 + 32)
        for index in 0..<trace.periodCount {
            text += "\(NumberText.plain(trace.periodEndSeconds[index])),\(NumberText.plain(trace.bandwidthBitsPerSecond[index]))"
            if let latencySeconds = trace.latencySeconds?[index] { text += ",\(NumberText.plain(latencySeconds))" }
            text += "\n"
        }
        return text
    }
}
