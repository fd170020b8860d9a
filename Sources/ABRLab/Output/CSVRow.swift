/// Builds CSV text that pandas reads with no options: comma-separated, fields quoted only when
/// needed, numbers written so they parse back to the same value.
public struct CSVRow {
    public private(set) var text = ""
    private var empty = true

    public init() {}

    /// A row with room for `capacity` bytes, so that adding fields does not grow it.
    public init(capacity: Int) {
        text.reserveCapacity(capacity)
    }

    public mutating func add(_ value: String) {
        separate()
        if value.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) {
            text += "\"" + value.replacingAll("\"", with: "\"\"") + "\""
        } else {
            text += value
        }
    }

    /// Shortest text that round-trips; empty for NaN so pandas reads a missing value.
    public mutating func add(_ value: Double) {
        separate()
        if value.isFinite { text += value.description } else if !value.isNaN { text += value > 0 ? "inf" : "-inf" }
    }

    public mutating func add(_ value: Int) {
        separate()
        text += String(value)
    }

    public mutating func add(_ value: UInt64) {
        separate()
        text += String(value)
    }

    /// The row with its line ending.
    public var line: String { text + "\n" }

    /// Appends the row and its line ending to `output`, without making ``line`` in between.
    public func appendLine(to output: inout String) {
        output += text
        output += "\n"
    }

    /// A header or any row of plain strings.
    public static func line(_ fields: [String]) -> String {
        var row = CSVRow()
        for field in fields { row.add(field) }
        return row.line
    }

    private mutating func separate() {
        if empty { empty = false } else { text += "," }
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }
}
