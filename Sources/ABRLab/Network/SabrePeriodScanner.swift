import Foundation

/// Sabre's traces as Sabre writes them, read without a JSON tree: an array of objects whose keys
/// are `duration_ms`, `bandwidth_kbps` and, in every element or in none, `latency_ms`, each once,
/// with plain numbers. A trace set holds thousands of these files, and building a tree of boxed
/// values cost three times the reading. Anything else — another key, an escape, a value that is
/// not a number, a rule broken — is left to ``LocatedJSON``, which reads the same trace or names
/// the mistake with its line, so this scanner only ever decides how fast a file is read.
package struct SabrePeriodScanner {
    package struct Period: Equatable {
        package var durationMilliseconds: Double
        package var bandwidthKbps: Double
        package var latencyMilliseconds: Double?

        package init(durationMilliseconds: Double, bandwidthKbps: Double, latencyMilliseconds: Double?) {
            self.durationMilliseconds = durationMilliseconds
            self.bandwidthKbps = bandwidthKbps
            self.latencyMilliseconds = latencyMilliseconds
        }
    }

    private let bytes: [UInt8]
    private var position = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The periods of `bytes` (a file without its byte order mark), or `nil` when the file is not
    /// in the plain form or breaks a rule the general reader reports.
    package static func periods(_ bytes: [UInt8]) -> [Period]? {
        var scanner = SabrePeriodScanner(bytes)
        return scanner.array()
    }

    private mutating func array() -> [Period]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var periods: [Period] = []
        periods.reserveCapacity(bytes.count / 64)
        if take(UInt8(ascii: "]")) { return nil }
        repeat {
            guard let period = object() else { return nil }
            if let first = periods.first, (first.latencyMilliseconds == nil) != (period.latencyMilliseconds == nil) { return nil }
            periods.append(period)
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "]")) else { return nil }
        skipWhitespace()
        return position == bytes.count ? periods : nil
    }

    private mutating func object() -> Period? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var duration: Double?, bandwidth: Double?, latency: Double?
        repeat {
            guard let key = key(), take(UInt8(ascii: ":")), let value = number() else { return nil }
            switch key {
            case .duration where duration == nil && value > 0: duration = value
            case .bandwidth where bandwidth == nil && value >= 0: bandwidth = value
            case .latency where latency == nil && value >= 0: latency = value
            default: return nil
            }
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")), let duration, let bandwidth else { return nil }
        return Period(durationMilliseconds: duration, bandwidthKbps: bandwidth, latencyMilliseconds: latency)
    }

    private enum Key { case duration, bandwidth, latency }

    private static let keys: [(Key, [UInt8])] = [
        (.duration, Array("\"duration_ms\"".utf8)), (.bandwidth, Array("\"bandwidth_kbps\"".utf8)), (.latency, Array("\"latency_ms\"".utf8)),
    ]

    private mutating func key() -> Key? {
        skipWhitespace()
        // The letter after the quote names the only key that can follow.
        guard bytes.count - position > 1, let (key, text) = Self.keys.first(where: { $0.1[1] == bytes[position + 1] }),
              bytes.count - position >= text.count else { return nil }
        let matches = bytes.withUnsafeBufferPointer { all in
            text.withUnsafeBufferPointer { memcmp(all.baseAddress! + position, $0.baseAddress!, text.count) == 0 }
        }
        guard matches else { return nil }
        position += text.count
        return key
    }

    /// A number as ``LocatedJSON`` reads one: the run of number characters, converted by
    /// `Double(_:)`, finite.
    private mutating func number() -> Double? {
        skipWhitespace()
        let start = position
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
                position += 1
            default:
                return Self.double(bytes[start..<position])
            }
        }
        return Self.double(bytes[start..<position])
    }

    private static func double(_ text: ArraySlice<UInt8>) -> Double? {
        if let whole = wholeNumber(text) { return whole }
        guard let first = text.first, first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
              let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    /// An optional minus and 1–15 digits (every value Sabre's traces hold), summed exactly:
    /// below 2⁵³ the double is the one `Double(_:)` reads, `-0` included, with no `String` made.
    private static func wholeNumber(_ text: ArraySlice<UInt8>) -> Double? {
        let negative = text.first == UInt8(ascii: "-")
        let digits = negative ? text.dropFirst() : text
        guard (1...15).contains(digits.count) else { return nil }
        var magnitude: Int64 = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            magnitude = magnitude * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return negative ? -Double(magnitude) : Double(magnitude)
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"): position += 1
            default: return
            }
        }
    }
}
