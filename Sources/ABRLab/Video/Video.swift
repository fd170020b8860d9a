import Foundation

/// A video as the emulator sees it: a ladder, a segment duration and the size of every
/// segment at every level.
public struct Video: Equatable, Sendable {
    /// Everything sits behind one reference, so copying a `Video` (once per decision context)
    /// costs a single retain.
    private var storage: Storage

    private final class Storage: Sendable, Equatable {
        let name: String
        let sessionURL: URL
        let segmentDurationSeconds: Double
        let ladder: [BitrateLevel]
        let formats: [String?]
        let segmentCount: Int
        /// Sizes in bytes, segment-major: `sizes[segment * ladder.count + level]`.
        let sizes: [Int]
        /// Sizes in bits as the manifest gave them, when it gave bits; same layout.
        let sizesBits: [Double]?
        /// Per-segment quality scores, laid out like `sizes`, for the metrics the source gave.
        let quality: [QualityMetric: [Double]]

        init(
            name: String, segmentDurationSeconds: Double, ladder: [BitrateLevel], formats: [String?], segmentCount: Int,
            sizes: [Int], sizesBits: [Double]? = nil, quality: [QualityMetric: [Double]] = [:]
        ) {
            self.name = name
            sessionURL = Video.sessionURL(name: name)
            self.segmentDurationSeconds = segmentDurationSeconds
            self.ladder = ladder
            self.formats = formats
            self.segmentCount = segmentCount
            self.sizes = sizes
            self.sizesBits = sizesBits
            self.quality = quality
        }

        func renamed(_ name: String) -> Storage {
            Storage(
                name: name, segmentDurationSeconds: segmentDurationSeconds, ladder: ladder, formats: formats,
                segmentCount: segmentCount, sizes: sizes, sizesBits: sizesBits, quality: quality
            )
        }

        /// Sizes in bits, whether the manifest gave bits or bytes.
        var bits: [Double] { sizesBits ?? sizes.map { Double($0) * 8 } }

        func withBits(_ bits: [Double]) -> Storage {
            Storage(
                name: name, segmentDurationSeconds: segmentDurationSeconds, ladder: ladder, formats: formats,
                segmentCount: segmentCount, sizes: sizes, sizesBits: bits, quality: quality
            )
        }

        static func == (lhs: Storage, rhs: Storage) -> Bool {
            lhs === rhs || (lhs.name == rhs.name && lhs.segmentDurationSeconds == rhs.segmentDurationSeconds
                && lhs.ladder == rhs.ladder && lhs.formats == rhs.formats && lhs.sizes == rhs.sizes
                && (lhs.sizesBits == rhs.sizesBits || lhs.bits == rhs.bits) && lhs.quality == rhs.quality)
        }
    }

    public var name: String {
        get { storage.name }
        set { storage = storage.renamed(newValue) }
    }
    /// What the player state machine loads in a session of this video, made once here because
    /// building a URL costs more than emulating a segment.
    public var sessionURL: URL { storage.sessionURL }
    public var segmentDurationSeconds: Double { storage.segmentDurationSeconds }
    /// Levels from lowest to highest bitrate.
    public var ladder: [BitrateLevel] { storage.ladder }
    /// Format of each level (e.g. `HIGH`, `LOSSLESS`) when known.
    public var formats: [String?] { storage.formats }
    /// Number of segments whose sizes are known.
    public var segmentCount: Int { storage.segmentCount }

    /// A VBR video from explicit sizes, `sizesBytes[segment][level]`, and optionally quality
    /// scores laid out the same way, `quality[.vmaf][segment][level]`.
    public init(
        name: String,
        segmentDurationSeconds: Double,
        ladder: [BitrateLevel],
        sizesBytes: [[Int]],
        formats: [String?]? = nil,
        quality: [QualityMetric: [[Double]]] = [:]
    ) throws(InputError) {
        try Self.checkLadder(ladder, segmentDurationSeconds: segmentDurationSeconds, name: name)
        guard !sizesBytes.isEmpty else { throw InputError(file: name, "the video has no segments") }
        var flat: [Int] = []
        flat.reserveCapacity(sizesBytes.count * ladder.count)
        for (segment, row) in sizesBytes.enumerated() {
            guard row.count == ladder.count else {
                throw InputError(file: name, "segment \(segment + 1) has \(row.count) sizes for \(ladder.count) levels")
            }
            for size in row {
                guard size > 0 else { throw InputError(file: name, "segment \(segment + 1) has a size of \(size) bytes") }
                flat.append(size)
            }
        }
        let formats = formats ?? Array(repeating: nil, count: ladder.count)
        guard formats.count == ladder.count else { throw InputError(file: name, "one format per level is needed") }
        var flatQuality: [QualityMetric: [Double]] = [:]
        for (metric, rows) in quality {
            flatQuality[metric] = try Self.flatten(metric, rows, file: name, segmentCount: sizesBytes.count, levelCount: ladder.count)
        }
        storage = Storage(
            name: name, segmentDurationSeconds: segmentDurationSeconds, ladder: ladder, formats: formats,
            segmentCount: sizesBytes.count, sizes: flat, quality: flatQuality
        )
    }

    /// A stable, machine-independent name: `abrlab://session/<video name>`.
    fileprivate static func sessionURL(name: String) -> URL {
        var components = URLComponents()
        components.scheme = "abrlab"
        components.host = "session"
        components.path = "/" + name
        return components.url ?? URL(fileURLWithPath: "/", isDirectory: true)
    }

    /// A CBR video: every segment of a level is `bitrate × duration / 8` bytes.
    public init(
        name: String,
        segmentDurationSeconds: Double,
        ladder: [BitrateLevel],
        segmentCount: Int,
        formats: [String?]? = nil
    ) throws(InputError) {
        guard segmentCount > 0 else { throw InputError(file: name, "the video needs at least one segment") }
        // Checked before anything is allocated: a spec of a few characters can ask for any count.
        guard segmentCount <= Self.maximumSizeCount / max(ladder.count, 1) else {
            throw InputError(file: name, "\(segmentCount) segments × \(ladder.count) levels is over \(Self.maximumSizeCount) segment sizes")
        }
        let rowBytes = ladder.map { Double($0.bitrate) * segmentDurationSeconds / 8 }
        guard rowBytes.allSatisfy({ $0 < Self.maximumSegmentBytes }) else {
            throw InputError(file: name, "a segment of \(NumberText.plain(segmentDurationSeconds)) s at the top level is over 1 PB")
        }
        try Self.checkLadder(ladder, segmentDurationSeconds: segmentDurationSeconds, name: name)
        let row = rowBytes.map { Int($0.rounded()) }
        if let size = row.first(where: { $0 <= 0 }) { throw InputError(file: name, "segment 1 has a size of \(size) bytes") }
        let formats = formats ?? Array(repeating: nil, count: ladder.count)
        guard formats.count == ladder.count else { throw InputError(file: name, "one format per level is needed") }
        // Filled flat: a row array per segment would make millions of allocations for a long video.
        let levels = row.count
        let flat = (0..<segmentCount * levels).map { row[$0 % levels] }
        storage = Storage(
            name: name, segmentDurationSeconds: segmentDurationSeconds, ladder: ladder, formats: formats,
            segmentCount: segmentCount, sizes: flat
        )
    }

    /// What every video needs of its ladder and segment duration.
    private static func checkLadder(_ ladder: [BitrateLevel], segmentDurationSeconds: Double, name: String) throws(InputError) {
        guard segmentDurationSeconds.isFinite, segmentDurationSeconds > 0, segmentDurationSeconds <= maximumSegmentSeconds else {
            throw InputError(file: name, "segment duration must be a positive number of seconds, at most \(NumberText.plain(maximumSegmentSeconds))")
        }
        guard !ladder.isEmpty else { throw InputError(file: name, "the ladder has no levels") }
        guard ladder == ladder.sorted(), Set(ladder.map(\.bitrate)).count == ladder.count else {
            throw InputError(file: name, "ladder bitrates must be distinct and ascending")
        }
        guard ladder.allSatisfy({ $0.bitrate > 0 }) else { throw InputError(file: name, "ladder bitrates must be positive") }
    }

    public var levelCount: Int { storage.ladder.count }

    /// Most segment sizes (segments × levels) a generated video may hold: 80 MB of them.
    public static let maximumSizeCount = 10_000_000
    /// Largest segment a generated video may have, in bytes (1 PB).
    static let maximumSegmentBytes = 1e15
    /// Longest segment a video may have: a day, the session time limit of every profile, so no
    /// session plays out (or samples, or replays) more than a few days of buffer.
    public static let maximumSegmentSeconds = EmulationProfile.defaultMaxSessionSeconds

    /// Quality scores by metric, segment-major; see `Video+Quality.swift`.
    var qualityTable: [QualityMetric: [Double]] { storage.quality }

    /// The bitrate of `level` (0-based, within the ladder): what `ladder[level].bitrateKbps` is,
    /// read without handing out the ladder, whose shared reference count every session stepped
    /// on another thread would otherwise touch.
    @inline(__always)
    public func bitrateKbps(level: Int) -> Double {
        storage.ladder[level].bitrateKbps
    }

    /// Size of `segment` at `level` in bytes (both 0-based); 0 outside the video.
    @inline(__always)
    public func sizeBytes(segment: Int, level: Int) -> Int {
        let storage = storage
        let levels = storage.ladder.count
        guard segment >= 0, segment < storage.segmentCount, level >= 0, level < levels else { return 0 }
        return storage.sizes[segment * levels + level]
    }

    /// Size of `segment` at `level` in bits: exactly as the manifest gave it when it gave bits,
    /// else bytes × 8; 0 outside the video.
    @inline(__always)
    public func sizeBits(segment: Int, level: Int) -> Double {
        let storage = storage
        let levels = storage.ladder.count
        guard segment >= 0, segment < storage.segmentCount, level >= 0, level < levels else { return 0 }
        if let bits = storage.sizesBits { return bits[segment * levels + level] }
        return Double(storage.sizes[segment * levels + level]) * 8
    }

    /// The same video with sizes known to the bit (`bits[segment][level]`, each rounding up to
    /// the byte size this video has).
    package func withSizesBits(_ bits: [[Double]]) -> Video {
        var copy = self
        copy.storage = storage.withBits(bits.flatMap { $0 })
        return copy
    }

    /// Bitrates in kilobits per second, lowest first.
    public var bitratesKbps: [Double] { ladder.map(\.bitrateKbps) }
}
