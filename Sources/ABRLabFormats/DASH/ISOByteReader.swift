import ABRLab

/// Big-endian reads over bytes, each nil past the end.
struct ISOByteReader {
    private let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func bytes(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, bytes.count - offset >= count else { return nil }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    mutating func skip(_ count: Int) -> Bool { bytes(count) != nil }

    mutating func uint8() -> UInt8? { bytes(1)?.first }
    mutating func uint16() -> UInt16? { bytes(2).map { $0.reduce(0) { $0 << 8 | UInt16($1) } } }
    mutating func uint32() -> UInt32? { bytes(4).map { $0.reduce(0) { $0 << 8 | UInt32($1) } } }
    mutating func uint64() -> UInt64? { bytes(8).map { $0.reduce(0) { $0 << 8 | UInt64($1) } } }
}
