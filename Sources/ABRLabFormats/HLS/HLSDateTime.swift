import ABRLab
import Foundation

/// ISO 8601 dates and times as HLS writes them (`EXT-X-PROGRAM-DATE-TIME`, `START-DATE`).
///
/// Parsing takes `YYYY-MM-DDThh:mm:ss`, any number of fractional-second digits, and a zone of
/// `Z`, `±hh:mm`, `±hhmm` or `±hh`. Formatting writes UTC with milliseconds and `Z`, the form of
/// the seed's backend (`2025-10-29T10:30:45.123Z`). The calendar arithmetic is done here rather
/// than with `ISO8601DateFormatter`, whose handling of fractional seconds differs across
/// platforms.
public enum HLSDateTime {
    /// The date `text` denotes; nil when it is not a complete ISO 8601 date and time.
    public static func parse(_ text: some StringProtocol) -> Date? {
        var scanner = Scanner(bytes: Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
              let month = scanner.number(digits: 2), scanner.skip("-"),
              let day = scanner.number(digits: 2), scanner.skip("T") || scanner.skip("t"),
              let hour = scanner.number(digits: 2), scanner.skip(":"),
              let minute = scanner.number(digits: 2), scanner.skip(":"),
              let second = scanner.number(digits: 2) else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 60 else { return nil }
        var fractionSeconds = 0.0
        if scanner.skip(".") || scanner.skip(",") {
            let digits = scanner.digits()
            guard !digits.isEmpty, let fraction = Double("0." + digits) else { return nil }
            fractionSeconds = fraction
        }
        guard let offsetSeconds = scanner.zoneOffsetSeconds(), scanner.isAtEnd else { return nil }
        let wholeSeconds = daysSinceEpoch(year: year, month: month, day: day) * 86_400
            + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(wholeSeconds) + fractionSeconds)
    }

    /// `date` in UTC with milliseconds: `2025-10-29T10:30:45.123Z`.
    public static func format(_ date: Date) -> String {
        let totalMilliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (days, dayMilliseconds) = floorDivision(totalMilliseconds, 86_400_000)
        let (year, month, day) = civilDate(daysSinceEpoch: Int(days))
        let milliseconds = Int(dayMilliseconds)
        return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2)
            + "T" + padded(milliseconds / 3_600_000, 2) + ":" + padded(milliseconds / 60_000 % 60, 2)
            + ":" + padded(milliseconds / 1000 % 60, 2) + "." + padded(milliseconds % 1000, 3) + "Z"
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Hinnant's algorithm).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of `daysSinceEpoch`.
    static func civilDate(daysSinceEpoch: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = daysSinceEpoch + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Reads the fixed-width fields of a date.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        mutating func number(digits count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard HLSAttributeList.isDigit(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += count
            return value
        }

        mutating func digits() -> String {
            let start = index
            while index < bytes.count, HLSAttributeList.isDigit(bytes[index]) { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// The zone's offset east of UTC; nil when the zone is missing or malformed.
        mutating func zoneOffsetSeconds() -> Int? {
            if skip("Z") || skip("z") { return 0 }
            let sign: Int
            if skip("+") { sign = 1 } else if skip("-") { sign = -1 } else { return nil }
            guard let hours = number(digits: 2), hours < 24 else { return nil }
            var minutes = 0
            if !isAtEnd {
                _ = skip(":")
                guard let value = number(digits: 2), value < 60 else { return nil }
                minutes = value
            }
            return sign * (hours * 3600 + minutes * 60)
        }
    }
}
