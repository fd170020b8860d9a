/// A per-segment perceptual quality score a video manifest can carry for every segment at every
/// level, for QoE models and strategies that weigh quality rather than bitrate.
public enum QualityMetric: String, CaseIterable, Sendable, Comparable {
    /// VMAF (Li et al., Netflix Tech Blog 2016; Rassool, IEEE BMSB 2017,
    /// doi:10.1109/BMSB.2017.7986143), 0 (worst) to 100 (indistinguishable from the source).
    case vmaf
    /// SSIM (Wang et al., IEEE Trans. Image Process. 2004, doi:10.1109/TIP.2003.819861) as an
    /// index, at most 1 (identical to the source); -1 to 1 in theory, 0 to 1 in practice.
    case ssim

    /// The key of its `[segment][level]` array in a Sabre-style manifest.
    public var manifestKey: String { "segment_\(rawValue)" }

    /// The values a score may take.
    public var range: ClosedRange<Double> {
        switch self {
        case .vmaf: 0...100
        case .ssim: -1...1
        }
    }

    public static func < (lhs: QualityMetric, rhs: QualityMetric) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
