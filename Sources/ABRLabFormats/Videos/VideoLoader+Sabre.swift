import ABRLab
import Foundation

extension VideoLoader {
    /// Reads a Sabre manifest: `{"segment_duration_ms", "bitrates_kbps", "segment_sizes_bits"}`,
    /// sizes indexed `[segment][level]`, and optionally per-segment quality in `segment_vmaf`
    /// (0–100) and `segment_ssim` (an index, at most 1), indexed the same way; a `source` object
    /// (where `abrlab videos import` read the video) is accepted and not read.
    ///
    /// Sizes become bytes as `bits / 8`, rounded up when not whole: a partial byte still has to
    /// cross the network, and rounding up never shortens a download. The bits are kept too, for
    /// models that count bits (the `sabre` profile). The video is named after the file without `.json`.
    public static func loadSabreManifest(_ url: URL) throws(InputError) -> Video {
        let file = TextFile.displayName(url)
        return try parseSabreManifest(TextFile.read(url), file: file, name: TraceLoader.traceName(forFile: file))
    }

    /// Parses the text of a Sabre manifest; `file` names it in errors.
    public static func parseSabreManifest(_ text: String, file: String, name: String) throws(InputError) -> Video {
        let root = try LocatedJSON.parse(text, file: file)
        var durationMilliseconds: Double?
        var ladder: [BitrateLevel]?
        var rows: [LocatedJSON]?
        var qualityRows: [QualityMetric: LocatedJSON] = [:]
        for (key, value) in try root.members(file: file, what: "a Sabre manifest") {
            switch key {
            case "segment_duration_ms":
                durationMilliseconds = try value.positive(file: file, what: key)
            case "bitrates_kbps":
                var kbps: [Double] = []
                for (index, element) in try value.elements(file: file, what: key).enumerated() {
                    kbps.append(try element.number(file: file, what: "\(key)[\(index)]"))
                }
                ladder = try self.ladder(kbps: kbps, file: file, line: value.line)
            case "segment_sizes_bits":
                rows = try value.elements(file: file, what: key)
            case VideoSource.manifestKey:
                // Where `abrlab videos import` read the video; a record for people, not read here.
                _ = try value.members(file: file, what: key)
            default:
                guard let metric = QualityMetric.allCases.first(where: { $0.manifestKey == key }) else {
                    throw InputError(
                        file: file, line: value.line,
                        "unknown key \"\(InputError.excerpt(key))\"; a Sabre manifest has segment_duration_ms, bitrates_kbps and segment_sizes_bits, "
                            + "and optionally segment_vmaf, segment_ssim and source"
                    )
                }
                qualityRows[metric] = value
            }
        }
        guard let durationMilliseconds else { throw InputError(file: file, line: root.line, "the manifest has no segment_duration_ms") }
        guard let ladder else { throw InputError(file: file, line: root.line, "the manifest has no bitrates_kbps") }
        guard let rows else { throw InputError(file: file, line: root.line, "the manifest has no segment_sizes_bits") }
        var sizesBytes: [[Int]] = []
        var sizesBits: [[Double]] = []
        sizesBytes.reserveCapacity(rows.count)
        sizesBits.reserveCapacity(rows.count)
        for (segment, row) in rows.enumerated() {
            let what = "segment_sizes_bits[\(segment)]"
            let sizes = try row.elements(file: file, what: what)
            guard sizes.count == ladder.count else {
                throw InputError(file: file, line: row.line, "\(what) has \(sizes.count) sizes for \(ladder.count) bitrates")
            }
            var rowBytes: [Int] = []
            var rowBits: [Double] = []
            rowBytes.reserveCapacity(sizes.count)
            for (level, size) in sizes.enumerated() {
                let bits = try size.positive(file: file, what: "\(what)[\(level)]")
                guard bits <= 1e15 else { throw InputError(file: file, line: size.line, "\(what)[\(level)] is too large") }
                rowBytes.append(Int((bits / 8).rounded(.up)))
                rowBits.append(bits)
            }
            sizesBytes.append(rowBytes)
            sizesBits.append(rowBits)
        }
        guard !sizesBytes.isEmpty else { throw InputError(file: file, line: root.line, "segment_sizes_bits lists no segments") }
        var quality: [QualityMetric: [[Double]]] = [:]
        for (metric, value) in qualityRows {
            quality[metric] = try qualityScores(metric, value, file: file, segmentCount: sizesBytes.count, levelCount: ladder.count)
        }
        return try makeVideo(
            file: file, name: name, segmentDurationSeconds: durationMilliseconds / 1000, ladder: ladder, sizesBytes: sizesBytes,
            quality: quality
        ).withSizesBits(sizesBits)
    }

    /// A `segment_vmaf`/`segment_ssim` array: one row per segment of the sizes, one score per
    /// level, each in the metric's range; errors point at the offending line.
    private static func qualityScores(
        _ metric: QualityMetric, _ value: LocatedJSON, file: String, segmentCount: Int, levelCount: Int
    ) throws(InputError) -> [[Double]] {
        let key = metric.manifestKey
        let rows = try value.elements(file: file, what: key)
        guard rows.count == segmentCount else {
            throw InputError(file: file, line: value.line, "\(key) has \(rows.count) segments but segment_sizes_bits has \(segmentCount)")
        }
        var scores: [[Double]] = []
        scores.reserveCapacity(rows.count)
        for (segment, row) in rows.enumerated() {
            let what = "\(key)[\(segment)]"
            let cells = try row.elements(file: file, what: what)
            guard cells.count == levelCount else {
                throw InputError(file: file, line: row.line, "\(what) has \(cells.count) scores for \(levelCount) bitrates")
            }
            var rowScores: [Double] = []
            rowScores.reserveCapacity(levelCount)
            for (level, cell) in cells.enumerated() {
                let score = try cell.number(file: file, what: "\(what)[\(level)]")
                guard metric.range.contains(score) else {
                    throw InputError(
                        file: file, line: cell.line,
                        "\(what)[\(level)] is \(NumberText.plain(score)); \(metric.rawValue) scores lie in "
                            + "\(NumberText.plain(metric.range.lowerBound))…\(NumberText.plain(metric.range.upperBound))"
                    )
                }
                rowScores.append(score)
            }
            scores.append(rowScores)
        }
        return scores
    }
}
