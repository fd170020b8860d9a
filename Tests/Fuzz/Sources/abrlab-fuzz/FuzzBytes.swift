/// Reads choices from fuzz input: each call consumes bytes, and an exhausted input reads as zeros,
/// so every input decodes to something and small mutations make small changes.
struct FuzzBytes {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isExhausted: Bool { position >= bytes.count }

    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// A number in `0..<count`; `count` > 0.
    mutating func below(_ count: Int) -> Int { Int(byte()) % count }

    /// One of `choices`, which is not empty.
    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

    /// A little-endian 32-bit number.
    mutating func uint32() -> UInt32 {
        (0..<4).reduce(UInt32(0)) { value, shift in value | UInt32(byte()) << (8 * UInt32(shift)) }
    }
}
