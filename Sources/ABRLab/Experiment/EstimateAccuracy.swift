/// How far the throughput estimate was from each download's measured throughput, as Sabre
/// reports it: running means of the over- and under-estimates and of the signed error.
public struct EstimateAccuracy: Equatable, Sendable {
    public private(set) var overCount = 0
    /// Mean of `estimate − measured` over downloads the estimate exceeded, kbit/s.
    public private(set) var overMeanKbps = 0.0
    public private(set) var atOrBelowCount = 0
    /// Mean of `measured − estimate` over the other downloads, kbit/s.
    public private(set) var atOrBelowMeanKbps = 0.0
    /// Mean of `estimate − measured` over all downloads, kbit/s.
    public private(set) var meanErrorKbps = 0.0

    public init() {}

    /// Compares the estimate held before a download with what the download measured.
    mutating func record(estimateKbps: Double?, sampleKbps: Double) {
        guard let estimate = estimateKbps else { return }
        if estimate > sampleKbps {
            overCount += 1
            overMeanKbps += (estimate - sampleKbps - overMeanKbps) / Double(overCount)
        } else {
            atOrBelowCount += 1
            atOrBelowMeanKbps += (sampleKbps - estimate - atOrBelowMeanKbps) / Double(atOrBelowCount)
        }
        meanErrorKbps += (estimate - sampleKbps - meanErrorKbps) / Double(overCount + atOrBelowCount)
    }
}
