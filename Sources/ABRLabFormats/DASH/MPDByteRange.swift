import ABRLab

/// A byte range of a resource: `first-last`, or open-ended `first-`.
struct MPDByteRange: Equatable, Sendable {
    let firstByte: Int
    let lastByte: Int?

    /// The range's length in a resource of `sizeBytes`; nil when the range does not fit in it.
    func lengthBytes(inResourceOf sizeBytes: Int) -> Int? {
        guard firstByte < sizeBytes, (lastByte ?? 0) < sizeBytes else { return nil }
        return (lastByte ?? (sizeBytes - 1)) - firstByte + 1
    }

    var text: String { "\(firstByte)-\(lastByte.map(String.init) ?? "")" }
}
