import ABRLab

/// The header of an ISO base media file box: its type and size (nil: to the end of the file).
struct ISOBoxHeader: Equatable {
    let type: String
    let sizeBytes: UInt64?
    let headerBytes: Int

    /// Reads a header at the reader's position; nil when cut short or when the size is smaller
    /// than the header or larger than `available` bytes from the box's start.
    static func read(_ reader: inout ISOByteReader, available: UInt64) -> ISOBoxHeader? {
        guard let size32 = reader.uint32(), let typeBytes = reader.bytes(4) else { return nil }
        let type = String(decoding: typeBytes.map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
        switch size32 {
        case 0:
            return ISOBoxHeader(type: type, sizeBytes: nil, headerBytes: 8)
        case 1:
            guard let large = reader.uint64(), large >= 16, large <= available else { return nil }
            return ISOBoxHeader(type: type, sizeBytes: large, headerBytes: 16)
        default:
            guard size32 >= 8, UInt64(size32) <= available else { return nil }
            return ISOBoxHeader(type: type, sizeBytes: UInt64(size32), headerBytes: 8)
        }
    }
}
