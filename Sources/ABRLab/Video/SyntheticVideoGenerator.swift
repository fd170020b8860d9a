import Foundation

/// Seeded VBR sizes for a ladder: each segment has a scene complexity shared by all its levels
/// (log-normal, correlated from one segment to the next), and each level adds a little noise of
/// its own, so sizes vary like a real encode while staying ordered by level.
public struct SyntheticVideoGenerator: Equatable, Sendable {
    // Each default is the settings table's for `videos generate`, which its help shows.
    public var ladderKbps: [Double] = Setting.ladderKbps.defaultValue(in: Self.command).numbers ?? []
    public var segmentDurationSeconds: Double = Setting.segmentDurationS.defaultValue(in: Self.command).number ?? 0
    public var segmentCount: Int = Setting.segments.defaultValue(in: Self.command).integer ?? 0
    /// Standard deviation of the log of scene complexity.
    public var complexitySpread: Double = Setting.complexitySpread.defaultValue().number ?? 0
    /// Correlation of complexity between consecutive segments (0…1).
    public var complexityCorrelation: Double = Setting.complexityCorrelation.defaultValue().number ?? 0
    /// Standard deviation of the per-level log noise.
    public var levelNoise: Double = Setting.levelNoise.defaultValue().number ?? 0
    public var seed: UInt64 = Setting.seed.defaultValue(in: Self.command).seed ?? 0

    /// How the settings table names the command that runs the generator.
    static let command = "videos generate"

    public init() {}

    /// Highest bitrate a level may have, kbps (1 Tbit/s).
    public static let maximumKbps = SettingDeclaration.maximumKbps

    /// Checks the parameters before anything is generated, naming the option that is off.
    public func validate() throws(InputError) {
        try Setting.ladderKbps.check(.numbers(ladderKbps))
        guard ladderKbps == ladderKbps.sorted(), Set(ladderKbps).count == ladderKbps.count else {
            throw InputError(setting: .ladderKbps, "needs distinct ascending bitrates")
        }
        try Setting.segmentDurationS.check(segmentDurationSeconds)
        try Setting.segments.check(.integer(segmentCount))
        // Checked before anything is allocated: the sizes of a billion segments fill gigabytes.
        let maximumSegments = Video.maximumSizeCount / ladderKbps.count
        guard segmentCount >= 1, segmentCount <= maximumSegments else {
            throw InputError(setting: .segments, "must be from 1 to \(maximumSegments) (\(Video.maximumSizeCount) segment sizes over \(ladderKbps.count) levels)")
        }
        try Setting.complexitySpread.check(complexitySpread)
        try Setting.complexityCorrelation.check(complexityCorrelation)
        try Setting.levelNoise.check(levelNoise)
    }

    public func generate(name: String) throws(InputError) -> Video {
        try validate()
        var random = SeededGenerator(seed: seed)
        let ladder = ladderKbps.map { BitrateLevel(bitrate: Int(($0 * 1000).rounded()), label: NumberText.plain($0) + "k") }
        // Start from the process's stationary distribution, so the first segments are as large on
        // average as the rest.
        var complexity = random.gaussian()
        let innovation = sqrt(1 - complexityCorrelation * complexityCorrelation)
        var sizes: [[Int]] = []
        sizes.reserveCapacity(segmentCount)
        for segment in 0..<segmentCount {
            if segment > 0 { complexity = complexityCorrelation * complexity + innovation * random.gaussian() }
            let scene = exp(complexitySpread * complexity - complexitySpread * complexitySpread / 2)
            var row: [Int] = []
            var floor = 0
            for kbps in ladderKbps {
                let factor = scene * exp(levelNoise * random.gaussian())
                let size = (kbps * 1000 * segmentDurationSeconds / 8 * factor).rounded()
                // Checked before the conversion to Int, which traps past Int.max.
                guard size <= Video.maximumSegmentBytes else {
                    throw InputError(setting: .segmentDurationS, "segment \(segment + 1) at \(NumberText.plain(kbps)) kbps would be over 1 PB; use shorter segments or lower bitrates")
                }
                let bytes = max(Int(size), floor + 1)
                row.append(bytes)
                floor = bytes
            }
            sizes.append(row)
        }
        return try Video(name: name, segmentDurationSeconds: segmentDurationSeconds, ladder: ladder, sizesBytes: sizes)
    }
}
