import ABRLab
import CLuaShim

extension LuaSession {
    /// Lays the video's per-segment quality out for the shim (`ctx:quality`), or passes nil
    /// when the video carries none.
    static func withQuality<Result>(of video: Video, _ body: (UnsafePointer<abrl_quality>?) -> Result) -> Result {
        let vmaf = video.qualityScores(.vmaf)
        let ssim = video.qualityScores(.ssim)
        guard vmaf != nil || ssim != nil else { return body(nil) }
        return withOptionalBuffer(vmaf) { vmafCells in
            withOptionalBuffer(ssim) { ssimCells in
                var quality = abrl_quality(
                    segment_count: Int64(video.segmentCount), level_count: Int64(video.levelCount), vmaf: vmafCells, ssim: ssimCells
                )
                return body(&quality)
            }
        }
    }

    private static func withOptionalBuffer<Result>(_ values: [Double]?, _ body: (UnsafePointer<Double>?) -> Result) -> Result {
        guard let values else { return body(nil) }
        return values.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
