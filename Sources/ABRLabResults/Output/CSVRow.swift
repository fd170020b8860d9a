/// Builds CSV text that pandas reads with no options: comma-separated, fields quoted only when
/// needed, numbers written so they parse back to the same value. Fields go into UTF-8 bytes:
/// a run writes hundreds of thousands of rows, and appending to a `String` piece by piece costs
/// more than formatting the numbers.
public struct CSVRow {
    public private(set) var bytes: [UInt8] = []
    private var empty = true

    /// How rows write numbers, for a run's fingerprint: rows written another way (`331.0` before
    /// this form) are neither appended to on resume nor merged with these.
    public static let numberForm = "shortest, whole without .0"

    public init() {}

    /// A row with room for `capacity` bytes, so that adding fields does not grow it.
    public init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// The row without its line ending.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Empties the row, keeping its storage for the next one, and starts it with `prefix`'s
    /// fields: cells every row of a session repeats are checked and quoted once.
    public mutating func start(with prefix: CSVRow) {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: prefix.bytes)
        empty = prefix.empty
    }

    public mutating func add(_ value: String) {
        separate()
        if Self.needsQuotes(value) {
            bytes.append(UInt8(ascii: "\""))
            for byte in value.utf8 {
                if byte == UInt8(ascii: "\"") { bytes.append(byte) }
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: "\""))
        } else {
            bytes.append(contentsOf: value.utf8)
        }
    }

    /// The shortest text that parses back to the same double: whole numbers without Swift's
    /// `.0` (`331`, `-0`), others as Swift writes them (`0.1`, `1e-05`, `1e+16`); empty for NaN
    /// so pandas reads a missing value.
    public mutating func add(_ value: Double) {
        // Whole numbers below 1e15 print faster as integers, with the same digits Swift writes;
        // the conversion truncates, so the test costs no call to the C library's trunc.
        let magnitude = abs(value)
        if magnitude < 1e15, Double(Int64(value)) == value {
            appendField { DecimalDigits.write(Int64(value).magnitude, negative: value.sign == .minus, into: $0) }
        } else if magnitude >= 1e-3, magnitude < 1e15 {
            appendField { ShortestDecimal.write(value, into: $0) }
        } else if value.isFinite {
            separate()
            // The row's bytes are lent to the sink (swapped, so they stay uniquely held) and the
            // digits land in them with no `String` in between.
            var sink = DigitSink()
            swap(&sink.bytes, &bytes)
            value.write(to: &sink)
            swap(&sink.bytes, &bytes)
        } else {
            separate()
            if !value.isNaN { bytes.append(contentsOf: (value > 0 ? "inf" : "-inf").utf8) }
        }
    }

    public mutating func add(_ value: Int) {
        appendField { DecimalDigits.write(UInt64(value.magnitude), negative: value < 0, into: $0) }
    }

    public mutating func add(_ value: UInt64) {
        appendField { DecimalDigits.write(value, negative: false, into: $0) }
    }

    /// The row with its line ending.
    public var line: String {
        var line = bytes
        line.append(UInt8(ascii: "\n"))
        return String(decoding: line, as: UTF8.self)
    }

    /// Appends the row and its line ending to `output`, without making ``line`` in between.
    public func appendLine(to output: inout [UInt8]) {
        output.append(contentsOf: bytes)
        output.append(UInt8(ascii: "\n"))
    }

    /// A header or any row of plain strings.
    public static func line(_ fields: [String]) -> String {
        var row = CSVRow()
        for field in fields { row.add(field) }
        return row.line
    }

    /// Whether a field holds a comma, a quote or a line break, which CSV must quote.
    private static func needsQuotes(_ value: String) -> Bool {
        let special = { (byte: UInt8) in
            byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
        }
        // A native string's bytes are scanned in place; the view's iterator costs more per byte.
        return value.utf8.withContiguousStorageIfAvailable { $0.contains(where: special) } ?? value.utf8.contains(where: special)
    }

    private mutating func separate() {
        if empty { empty = false } else { bytes.append(UInt8(ascii: ",")) }
    }

    /// Appends a separator and a number that `write` puts straight into the row's spare
    /// capacity (`DecimalDigits.room` bytes), returning its length: no scratch copy, no second append.
    @inline(__always) private mutating func appendField(_ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        let comma = !empty
        empty = false
        bytes.append(addingCapacity: DecimalDigits.room + 1) { output in
            output.withUnsafeMutableBufferPointer { buffer, initialized in
                let base = buffer.baseAddress!
                if comma { base[0] = UInt8(ascii: ",") }
                let start = comma ? 1 : 0
                initialized = start &+ write(base + start)
            }
        }
    }
}

/// Takes a double's text from the standard library's formatter straight into a row's bytes,
/// dropping the `.0` Swift writes after whole numbers.
private struct DigitSink: TextOutputStream {
    var bytes: [UInt8] = []

    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { append($0) }
    }

    /// The formatter's own entry for ASCII text: called with its buffer, no `String` made.
    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        append(buffer)
    }

    private mutating func append(_ text: UnsafeBufferPointer<UInt8>) {
        let count = text.count
        let whole = count > 2 && text[count - 2] == UInt8(ascii: ".") && text[count - 1] == UInt8(ascii: "0")
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[..<(whole ? count - 2 : count)]))
    }
}
