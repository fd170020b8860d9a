import ABRLab
import Foundation

/// Writes videos as Sabre manifests, so a generated video can ship as a file and load anywhere
/// Sabre's format does.
public enum VideoWriter {
    /// The manifest text, laid out as Sabre's own files: one segment's sizes per line. Sizes are
    /// `bytes × 8` bits and bitrates `bit/s ÷ 1000` kbps, so `VideoLoader` reads back the same
    /// sizes, bitrates and duration; quality scores, when the video has them, follow as
    /// `segment_vmaf` and `segment_ssim`, and `source` records where an imported video came from;
    /// labels and formats have no place in the format and are dropped.
    public static func sabreManifestText(_ video: Video, source: VideoSource? = nil) -> String {
        let durationSeconds = video.segmentDurationSeconds
        let durationMilliseconds = NumberText.preimage(of: durationSeconds, near: durationSeconds * 1000) { $0 / 1000 }
        var text = "{\n"
        text.reserveCapacity(video.segmentCount * video.levelCount * 10 + 128)
        if let source { text += "    \"\(VideoSource.manifestKey)\": \(source.json),\n" }
        text += "    \"segment_duration_ms\": \(NumberText.plain(durationMilliseconds)),\n"
        text += "    \"bitrates_kbps\": [ \(video.bitratesKbps.map(NumberText.plain).joined(separator: ", ")) ],\n"
        text += "    \"segment_sizes_bits\": [\n"
        for segment in 0..<video.segmentCount {
            let bits = (0..<video.levelCount).map { String(video.sizeBytes(segment: segment, level: $0) * 8) }
            text += "        [ \(bits.joined(separator: ", ")) ]"
            text += segment == video.segmentCount - 1 ? "\n" : ",\n"
        }
        text += "    ]"
        for metric in video.qualityMetrics {
            text += ",\n    \"\(metric.manifestKey)\": [\n"
            for segment in 0..<video.segmentCount {
                let scores = (0..<video.levelCount).map { video.quality(metric, segment: segment, level: $0).map(NumberText.plain) ?? "0" }
                text += "        [ \(scores.joined(separator: ", ")) ]"
                text += segment == video.segmentCount - 1 ? "\n" : ",\n"
            }
            text += "    ]"
        }
        return text + "\n}\n"
    }

    /// Writes the manifest to `url`, replacing any file there.
    public static func writeSabreManifest(_ video: Video, source: VideoSource? = nil, to url: URL) throws(InputError) {
        try TextFile.write(sabreManifestText(video, source: source), to: url)
    }
}
