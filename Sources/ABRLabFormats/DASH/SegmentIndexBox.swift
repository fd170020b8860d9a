import ABRLab

/// A Segment Index box (`sidx`, ISO/IEC 14496-12:2015 §8.16.3): the byte size and duration of
/// each subsegment of a single-file Representation, as a DASH `SegmentBase@indexRange` points at.
public struct SegmentIndexBox: Equatable, Sendable {
    public struct Reference: Equatable, Sendable {
        /// Whether the reference points at another `sidx` (a hierarchical index) rather than media.
        public let referencesIndex: Bool
        public let sizeBytes: Int
        public let durationTicks: Int
    }

    /// Ticks per second of the durations.
    public let timescale: Int
    public let earliestPresentationTimeTicks: UInt64
    /// Bytes from the end of this box to the first referenced byte.
    public let firstOffsetBytes: Int
    public let references: [Reference]
    /// The whole box's size, header included.
    public let boxSizeBytes: Int

    /// Parses the box at the start of `bytes`; the reason it is not a valid `sidx` otherwise.
    public static func parse(_ bytes: [UInt8]) -> Result<SegmentIndexBox, SegmentIndexBoxError> {
        var reader = ISOByteReader(bytes)
        guard let header = ISOBoxHeader.read(&reader, available: UInt64(bytes.count)) else { return .failure(.truncated) }
        guard header.type == "sidx" else { return .failure(.notASegmentIndex(found: header.type)) }
        guard let size = header.sizeBytes, size <= UInt64(bytes.count) else { return .failure(.truncated) }
        guard let version = reader.uint8(), reader.skip(3), reader.skip(4), let timescale = reader.uint32() else { return .failure(.truncated) }
        guard version <= 1 else { return .failure(.unknownVersion(Int(version))) }
        guard timescale > 0 else { return .failure(.zeroTimescale) }
        let earliest: UInt64
        let firstOffset: UInt64
        if version == 0 {
            guard let time = reader.uint32(), let offset = reader.uint32() else { return .failure(.truncated) }
            (earliest, firstOffset) = (UInt64(time), UInt64(offset))
        } else {
            guard let time = reader.uint64(), let offset = reader.uint64() else { return .failure(.truncated) }
            (earliest, firstOffset) = (time, offset)
        }
        guard reader.skip(2), let count = reader.uint16() else { return .failure(.truncated) }
        guard UInt64(reader.offset) + UInt64(count) * 12 <= size else { return .failure(.truncated) }
        guard firstOffset <= UInt64(Int32.max) else { return .failure(.truncated) }
        var references: [Reference] = []
        references.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let typeAndSize = reader.uint32(), let duration = reader.uint32(), reader.skip(4) else { return .failure(.truncated) }
            references.append(Reference(
                referencesIndex: typeAndSize >> 31 == 1, sizeBytes: Int(typeAndSize & 0x7FFF_FFFF), durationTicks: Int(duration)
            ))
        }
        return .success(SegmentIndexBox(
            timescale: Int(timescale), earliestPresentationTimeTicks: earliest, firstOffsetBytes: Int(firstOffset),
            references: references, boxSizeBytes: Int(size)
        ))
    }
}

public enum SegmentIndexBoxError: Error, Equatable, Sendable {
    case truncated
    case notASegmentIndex(found: String)
    case unknownVersion(Int)
    case zeroTimescale

    public var message: String {
        switch self {
        case .truncated: "the sidx box is cut short"
        case .notASegmentIndex(let found): "holds a '\(found)' box, not a sidx"
        case .unknownVersion(let version): "the sidx box has version \(version); ISO/IEC 14496-12 defines 0 and 1"
        case .zeroTimescale: "the sidx box has a timescale of 0"
        }
    }
}
