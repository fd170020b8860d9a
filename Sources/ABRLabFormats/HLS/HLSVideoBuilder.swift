import ABRLab
import Foundation

/// Turns loaded variants into a `Video`, collecting warnings; `HLSVideoLoader` documents the rules.
struct HLSVideoBuilder {
    let masterFile: String
    let levels: [HLSVideoLoader.LevelSource]
    private(set) var warnings: [InputWarning] = []

    init(masterFile: String, levels: [HLSVideoLoader.LevelSource]) {
        self.masterFile = masterFile
        self.levels = levels
    }

    mutating func video(name: String) throws(InputError) -> Video {
        let segmentCount = commonSegmentCount()
        let durationSeconds = try segmentDurationSeconds(segmentCount: segmentCount)
        let formats = levels.map { format(of: $0) }
        var sizesBytes = Array(repeating: [Int](), count: segmentCount)
        for level in levels {
            for (segment, size) in try sizes(of: level, segmentCount: segmentCount).enumerated() {
                sizesBytes[segment].append(size)
            }
        }
        let ladder = zip(levels, labels(formats: formats)).map { level, label in
            BitrateLevel(bitrate: level.variant.bandwidthBitsPerSecond, label: label)
        }
        do {
            return try Video(
                name: name, segmentDurationSeconds: durationSeconds, ladder: ladder, sizesBytes: sizesBytes, formats: formats
            )
        } catch {
            throw InputError(file: masterFile, error.message)
        }
    }

    /// The shortest variant's segment count.
    private mutating func commonSegmentCount() -> Int {
        let counts = levels.map(\.playlist.segments.count)
        let count = counts.min() ?? 0
        if Set(counts).count > 1 {
            let listed = zip(levels, counts).map { "\($0.variant.uri): \($1)" }.joined(separator: ", ")
            warnings.append(InputWarning(file: masterFile, "variants have different segment counts (\(listed)); using the first \(count)"))
        }
        return count
    }

    /// The median `EXTINF` of the segments in use.
    private mutating func segmentDurationSeconds(segmentCount: Int) throws(InputError) -> Double {
        let durations = levels.flatMap { $0.playlist.segments.prefix(segmentCount).map(\.durationSeconds) }.sorted()
        let middle = durations.count / 2
        let median = durations.count % 2 == 1 ? durations[middle] : (durations[middle - 1] + durations[middle]) / 2
        guard median > 0 else { throw InputError(file: masterFile, "the median EXTINF duration is 0 s; segments need a duration") }
        let straying = levels.flatMap { level in
            level.playlist.segments.prefix(segmentCount).dropLast().map(\.durationSeconds)
        }.filter { abs($0 - median) > 0.01 * median }
        if let low = straying.min(), let high = straying.max() {
            let range = low == high ? NumberText.plain(low) : NumberText.plain(low) + "–" + NumberText.plain(high)
            let segments = straying.count == 1 ? "1 segment lasts" : "\(straying.count) segments last"
            warnings.append(InputWarning(
                file: masterFile,
                "\(segments) \(range) s, more than 1 % away from the median \(NumberText.plain(median)) s used for every segment"
            ))
        }
        return median
    }

    /// The first format the level's playlist announces.
    private mutating func format(of level: HLSVideoLoader.LevelSource) -> String? {
        let formats = level.playlist.distinctFormats
        if formats.count > 1 {
            warnings.append(InputWarning(
                file: level.file, "announces several formats (\(formats.joined(separator: ", "))); the level is labelled \(formats[0])"
            ))
        }
        return formats.first
    }

    private func labels(formats: [String?]) -> [String] {
        let preferred = zip(levels, formats).map { level, format in
            format ?? level.variant.resolution.map { "\($0.heightPixels)p" } ?? bitrateLabel(level)
        }
        var counts: [String: Int] = [:]
        for label in preferred { counts[label, default: 0] += 1 }
        return zip(levels, preferred).map { level, label in counts[label] == 1 ? label : bitrateLabel(level) }
    }

    private func bitrateLabel(_ level: HLSVideoLoader.LevelSource) -> String {
        VideoLoader.label(kbps: Double(level.variant.bandwidthBitsPerSecond) / 1000)
    }

    /// Sizes of the first `segmentCount` segments: byte ranges, else files, else estimates.
    private mutating func sizes(of level: HLSVideoLoader.LevelSource, segmentCount: Int) throws(InputError) -> [Int] {
        var estimated = 0
        var sizes: [Int] = []
        for segment in level.playlist.segments.prefix(segmentCount) {
            sizes.append(try size(of: segment, level: level, estimated: &estimated))
        }
        if estimated > 0 {
            warnings.append(InputWarning(
                file: level.file,
                "\(estimated) of \(segmentCount) segments have neither a byte range nor a file on disk; "
                    + "their sizes are estimated as BANDWIDTH × EXTINF / 8"
            ))
        }
        return sizes
    }

    /// A segment's size: its byte range, else its file's, else an estimate (counted in `estimated`).
    private func size(of segment: HLSMediaSegment, level: HLSVideoLoader.LevelSource, estimated: inout Int) throws(InputError) -> Int {
        if let range = segment.byteRange { return range.lengthBytes }
        if let bytes = try fileSizeBytes(segment.uri, playlist: level.url), bytes > 0 { return bytes }
        estimated += 1
        let bits = Double(level.variant.bandwidthBitsPerSecond) * segment.durationSeconds
        return max(1, Int((bits / 8).rounded()))
    }

    /// Size of a segment file next to its playlist; nil when there is no local file. A FIFO,
    /// device or socket there is refused: its size says nothing of the segment.
    private func fileSizeBytes(_ uri: String, playlist: URL) throws(InputError) -> Int? {
        guard let url = try? HLSVideoLoader.resolve(uri, against: playlist, file: "", line: nil), !TextFile.isDirectory(url) else { return nil }
        var status = stat()
        guard stat(url.path, &status) == 0 else { return nil }
        if let problem = InputFile.notRegular(status.st_mode) { throw InputError(file: TextFile.displayName(url), problem) }
        return Int(status.st_size)
    }
}
