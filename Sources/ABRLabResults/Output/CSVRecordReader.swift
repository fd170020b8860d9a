import ABRLab
import Foundation

/// Reads CSV records as ``CSVRow`` writes them (RFC 4180 quoting, `\n` line ends) from a file
/// in blocks, so memory stays flat however long the file is. Quoted fields may hold commas,
/// quotes and line breaks.
public struct CSVRecordReader {
    private let handle: FileHandle
    private let url: URL
    private var remaining: UInt64
    private var block: [UInt8] = []
    private var position = 0
    /// The 1-based line the next record starts on, for messages.
    public private(set) var line = 1

    /// Reads the first `length` bytes of the file at `url` (all of it when `nil`).
    public init(url: URL, length: UInt64? = nil) throws(InputError) {
        guard let handle = try? FileHandle(forReadingFrom: url) else { throw InputError(file: url.path, "cannot read the file") }
        self.handle = handle
        self.url = url
        remaining = length ?? UInt64.max
    }

    public func close() { try? handle.close() }

    /// The next record's fields, or `nil` at the end of the file.
    public mutating func next() throws(InputError) -> [String]? {
        guard try fill() else { return nil }
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var startLine = line
        while true {
            guard try fill() else {
                if quoted { throw InputError(file: url.path, line: startLine, "a quoted field does not end") }
                fields.append(String(decoding: field, as: UTF8.self))
                return fields
            }
            let byte = block[position]
            position += 1
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if try fill(), block[position] == UInt8(ascii: "\"") {
                        field.append(byte)
                        position += 1
                    } else {
                        quoted = false
                    }
                } else {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                quoted = true
                startLine = line
            case UInt8(ascii: ","):
                fields.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
            case UInt8(ascii: "\n"):
                line += 1
                fields.append(String(decoding: field, as: UTF8.self))
                return fields
            default:
                field.append(byte)
            }
        }
    }

    /// Makes sure a byte is available at `position`; `false` at the end.
    private mutating func fill() throws(InputError) -> Bool {
        if position < block.count { return true }
        guard remaining > 0 else { return false }
        let data: Data?
        do { data = try handle.read(upToCount: Int(min(remaining, 1 << 16))) } catch {
            throw InputError(file: url.path, "cannot read the file")
        }
        guard let data, !data.isEmpty else {
            remaining = 0
            return false
        }
        block = [UInt8](data)
        position = 0
        if remaining != UInt64.max { remaining -= UInt64(data.count) }
        return true
    }
}
