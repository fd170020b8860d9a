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

    /// Highest bitrate a level may have, kbps (1 Tbit/s).
    public static let maximumKbps = 1e9
    /// Largest spread of scene complexity and of level noise (standard deviations of a log):
    /// at 2 a segment is e² ≈ 7 times its mean size one time in six.
    public static let maximumSpread = 2.0

    /// Checks the parameters before anything is generated, naming the option that is off.
    public func validate() throws(InputError) {
        guard !ladderKbps.isEmpty, ladderKbps.allSatisfy({ $0 > 0 && $0 <= Self.maximumKbps }), ladderKbps == ladderKbps.sorted(),
              Set(ladderKbps).count == ladderKbps.count else {
            throw InputError(setting: .ladderKbps, "needs distinct ascending bitrates above 0 and at most 1e9 kbps")
        }
        guard segmentDurationSeconds > 0, segmentDurationSeconds <= Video.maximumSegmentSeconds else {
            throw InputError(setting: .segmentDurationS, "must be a positive number of seconds, at most 86400")
        }
        // Checked before anything is allocated: the sizes of a billion segments fill gigabytes.
        let maximumSegments = Video.maximumSizeCount / ladderKbps.count
        guard segmentCount >= 1, segmentCount <= maximumSegments else {
            throw InputError(setting: .segments, "must be from 1 to \(maximumSegments) (\(Video.maximumSizeCount) segment sizes over \(ladderKbps.count) levels)")
        }
        guard (0...Self.maximumSpread).contains(complexitySpread) else {
            throw InputError(setting: .complexitySpread, "must be from 0 to 2")
        }
        guard (0...1).contains(complexityCorrelation) else {
            throw InputError(setting: .complexityCorrelation, "must be from 0 to 1")
        }
        guard (0...Self.maximumSpread).contains(levelNoise) else {
            throw InputError(setting: .levelNoise, "must be from 0 to 2")
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
