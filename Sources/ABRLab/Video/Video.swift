/// A video as the emulator sees it: a ladder, a segment duration and the size of every
/// segment at every level.
public struct Video: Equatable, Sendable {
    public var name: String
    public let segmentDurationSeconds: Double
    /// Levels from lowest to highest bitrate.
    public let ladder: [BitrateLevel]
    /// Format of each level (e.g. `HIGH`, `LOSSLESS`) when known.
    public let formats: [String?]
    /// Number of segments whose sizes are known.
    public let segmentCount: Int
    /// Sizes in bytes, segment-major: `sizes[segment * ladder.count + level]`, behind a class so
    /// that copying a `Video` (once per decision context) costs one retain.
    private let sizes: SizeTable

    private final class SizeTable: Sendable, Equatable {
        let bytes: [Int]
        init(_ bytes: [Int]) { self.bytes = bytes }
        static func == (lhs: SizeTable, rhs: SizeTable) -> Bool { lhs === rhs || lhs.bytes == rhs.bytes }
    }

    /// A VBR video from explicit sizes, `sizesBytes[segment][level]`.
    public init(
        name: String,
        segmentDurationSeconds: Double,
        ladder: [BitrateLevel],
        sizesBytes: [[Int]],
        formats: [String?]? = nil
    ) throws(InputError) {
        guard segmentDurationSeconds.isFinite, segmentDurationSeconds > 0 else {
            throw InputError(file: name, "segment duration must be a positive number of seconds")
        }
        guard !ladder.isEmpty else { throw InputError(file: name, "the ladder has no levels") }
        guard ladder == ladder.sorted(), Set(ladder.map(\.bitrate)).count == ladder.count else {
            throw InputError(file: name, "ladder bitrates must be distinct and ascending")
        }
        guard ladder.allSatisfy({ $0.bitrate > 0 }) else { throw InputError(file: name, "ladder bitrates must be positive") }
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
        self.name = name
        self.segmentDurationSeconds = segmentDurationSeconds
        self.ladder = ladder
        self.formats = formats
        self.segmentCount = sizesBytes.count
        self.sizes = SizeTable(flat)
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
        let row = ladder.map { Int((Double($0.bitrate) * segmentDurationSeconds / 8).rounded()) }
        try self.init(
            name: name, segmentDurationSeconds: segmentDurationSeconds, ladder: ladder,
            sizesBytes: Array(repeating: row, count: segmentCount), formats: formats
        )
    }

    public var levelCount: Int { ladder.count }

    /// Size of `segment` at `level` in bytes (both 0-based); 0 outside the video.
    @inline(__always)
    public func sizeBytes(segment: Int, level: Int) -> Int {
        guard segment >= 0, segment < segmentCount, level >= 0, level < ladder.count else { return 0 }
        return sizes.bytes[segment * ladder.count + level]
    }

    /// Bitrates in kilobits per second, lowest first.
    public var bitratesKbps: [Double] { ladder.map(\.bitrateKbps) }
}
