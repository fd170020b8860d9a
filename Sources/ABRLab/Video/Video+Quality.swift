extension Video {
    /// The quality metrics the video carries, in `QualityMetric` order.
    public var qualityMetrics: [QualityMetric] { QualityMetric.allCases.filter { qualityScores($0) != nil } }

    /// The `metric` score of `segment` at `level` (both 0-based); nil when the video carries no
    /// such scores or the indices fall outside it.
    @inline(__always)
    public func quality(_ metric: QualityMetric, segment: Int, level: Int) -> Double? {
        guard let scores = qualityScores(metric), segment >= 0, segment < segmentCount, level >= 0, level < levelCount else {
            return nil
        }
        return scores[segment * levelCount + level]
    }

    /// Every `metric` score, segment-major (`[segment * levelCount + level]`); nil when absent.
    public func qualityScores(_ metric: QualityMetric) -> [Double]? { qualityTable[metric] }

    /// Checks one metric's `[segment][level]` rows against the video's shape and the metric's
    /// range, and lays them out segment-major.
    static func flatten(
        _ metric: QualityMetric, _ rows: [[Double]], file: String, segmentCount: Int, levelCount: Int
    ) throws(InputError) -> [Double] {
        let key = metric.manifestKey
        guard rows.count == segmentCount else {
            throw InputError(file: file, "\(key) has \(rows.count) segments but the sizes have \(segmentCount)")
        }
        var flat: [Double] = []
        flat.reserveCapacity(segmentCount * levelCount)
        for (segment, row) in rows.enumerated() {
            guard row.count == levelCount else {
                throw InputError(file: file, "\(key)[\(segment)] has \(row.count) scores for \(levelCount) levels")
            }
            for (level, score) in row.enumerated() {
                guard score.isFinite, metric.range.contains(score) else {
                    throw InputError(
                        file: file,
                        "\(key)[\(segment)][\(level)] is \(NumberText.plain(score)); \(metric.rawValue) scores lie in "
                            + "\(NumberText.plain(metric.range.lowerBound))…\(NumberText.plain(metric.range.upperBound))"
                    )
                }
                flat.append(score)
            }
        }
        return flat
    }
}
