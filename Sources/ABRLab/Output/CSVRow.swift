/// Builds CSV text that pandas reads with no options: comma-separated, fields quoted only when
/// needed, numbers written so they parse back to the same value.
public struct CSVRow {
    public private(set) var text = ""
    private var empty = true

    /// How rows write numbers, for a run's fingerprint: rows written another way (`331.0` before
    /// this form) are neither appended to on resume nor merged with these.
    public static let numberForm = "shortest, whole without .0"

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

    /// The shortest text that parses back to the same double: whole numbers without Swift's
    /// `.0` (`331`, `-0`), others as Swift writes them (`0.1`, `1e-05`, `1e+16`); empty for NaN
    /// so pandas reads a missing value.
    public mutating func add(_ value: Double) {
        separate()
        // Whole numbers below 1e15 print faster as integers, with the same digits Swift writes.
        if value == value.rounded(.towardZero), abs(value) < 1e15 {
            text += value == 0 && value.sign == .minus ? "-0" : String(Int64(value))
        } else if value.isFinite {
            let shortest = value.description
            if shortest.hasSuffix(".0") { text.append(contentsOf: shortest.dropLast(2)) } else { text += shortest }
        } else if !value.isNaN {
            text += value > 0 ? "inf" : "-inf"
        }
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
