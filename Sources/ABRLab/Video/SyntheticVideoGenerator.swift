import Foundation

/// Seeded VBR sizes for a ladder: each segment has a scene complexity shared by all its levels
/// (log-normal, correlated from one segment to the next), and each level adds a little noise of
/// its own, so sizes vary like a real encode while staying ordered by level.
public struct SyntheticVideoGenerator: Equatable, Sendable {
    public var ladderKbps: [Double] = [300, 750, 1200, 1850, 2850, 4300]
    public var segmentDurationSeconds: Double = 4
    public var segmentCount: Int = 48
    /// Standard deviation of the log of scene complexity.
    public var complexitySpread: Double = 0.25
    /// Correlation of complexity between consecutive segments (0…1).
    public var complexityCorrelation: Double = 0.7
    /// Standard deviation of the per-level log noise.
    public var levelNoise: Double = 0.05
    public var seed: UInt64 = 1

    public init() {}

    public func validate() throws(InputError) {
        guard !ladderKbps.isEmpty, ladderKbps.allSatisfy({ $0 > 0 && $0.isFinite }), ladderKbps == ladderKbps.sorted(),
              Set(ladderKbps).count == ladderKbps.count else {
            throw InputError(file: "--ladder-kbps", "needs distinct ascending positive bitrates")
        }
        guard segmentDurationSeconds > 0, segmentDurationSeconds.isFinite else {
            throw InputError(file: "--segment-duration-s", "must be positive")
        }
        guard segmentCount >= 1 else { throw InputError(file: "--segments", "must be at least 1") }
        guard complexitySpread >= 0, levelNoise >= 0, (0...1).contains(complexityCorrelation) else {
            throw InputError(file: "--complexity-spread/--level-noise/--complexity-correlation", "out of range")
        }
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
                let bytes = max(Int((kbps * 1000 * segmentDurationSeconds / 8 * factor).rounded()), floor + 1)
                row.append(bytes)
                floor = bytes
            }
            sizes.append(row)
        }
        return try Video(name: name, segmentDurationSeconds: segmentDurationSeconds, ladder: ladder, sizesBytes: sizes)
    }
}
