/// A file name's bytes as the text abrlab writes for it (trace names, `run.json` paths, messages).
///
/// Linux file names are bytes; CSV, JSON and messages are UTF-8. A name in valid UTF-8 is
/// written as it is. In a name that is not, each byte outside valid UTF-8 is written `\xHH` (two
/// upper-case hex digits) and each backslash `\\`, so the text maps back to the bytes: `\xHH`
/// stands for the byte HH and `\\` for a backslash.
public struct FileNameText {
    /// The text to write.
    public let text: String
    /// The bytes, when the text is not their UTF-8 (escapes were needed); `nil` when it is.
    public let rawBytes: [UInt8]?

    public init<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        if let valid = String(validating: bytes, as: UTF8.self) {
            text = valid
            rawBytes = nil
            return
        }
        let array = Array(bytes)
        var written: [UInt8] = []
        written.reserveCapacity(array.count + 8)
        let digits = Array("0123456789ABCDEF".utf8)
        var index = 0
        while index < array.count {
            let byte = array[index]
            if byte == UInt8(ascii: "\\") {
                written += [byte, byte]
                index += 1
                continue
            }
            let length = Self.sequenceLength(lead: byte)
            if length > 0, index + length <= array.count, String(validating: array[index..<index + length], as: UTF8.self) != nil {
                written += array[index..<index + length]
                index += length
            } else {
                written += [UInt8(ascii: "\\"), UInt8(ascii: "x"), digits[Int(byte >> 4)], digits[Int(byte & 0xf)]]
                index += 1
            }
        }
        text = String(decoding: written, as: UTF8.self)
        rawBytes = array
    }

    /// The length of the UTF-8 sequence a lead byte starts; 0 for a byte that starts none.
    private static func sequenceLength(lead: UInt8) -> Int {
        switch lead {
        case 0x00...0x7f: 1
        case 0xc2...0xdf: 2
        case 0xe0...0xef: 3
        case 0xf0...0xf4: 4
        default: 0
        }
    }
}
