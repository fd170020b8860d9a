import ABRLab

/// An `xs:duration` as MPDs write them (`PT1H2M3.5S`, `P1DT0.5S`), in seconds.
///
/// Years and months have no fixed length, so an MPD duration using them is refused rather than
/// guessed; no MPD writer uses them.
enum MPDDuration {
    /// Seconds in `text`, or a reason it is not a duration abrlab reads.
    static func seconds(_ text: String) -> Result<Double, MPDDurationError> {
        var rest = Substring(text.trimmingWhitespace)
        guard rest.first == "P" else { return .failure(.notADuration) }
        rest = rest.dropFirst()
        var total = 0.0
        var inTime = false
        var sawField = false
        var number = ""
        for character in rest {
            if character == "T" {
                guard !inTime, number.isEmpty else { return .failure(.notADuration) }
                inTime = true
                continue
            }
            if character.isASCII, character.isNumber || character == "." {
                number.append(character)
                continue
            }
            guard !number.isEmpty, number.first != ".", number.filter({ $0 == "." }).count <= 1, let value = Double(number) else {
                return .failure(.notADuration)
            }
            switch (character, inTime) {
            case ("Y", false), ("M", false): return .failure(.calendarUnits)
            case ("W", false): total += value * 604_800
            case ("D", false): total += value * 86_400
            case ("H", true): total += value * 3_600
            case ("M", true): total += value * 60
            case ("S", true): total += value
            default: return .failure(.notADuration)
            }
            // Only seconds may have a fraction in the MPDs abrlab reads; the others are whole.
            guard character == "S" || !number.contains(".") else { return .failure(.notADuration) }
            sawField = true
            number = ""
        }
        guard sawField, number.isEmpty, total.isFinite else { return .failure(.notADuration) }
        return .success(total)
    }
}

enum MPDDurationError: Error, Equatable {
    case notADuration
    case calendarUnits

    var message: String {
        switch self {
        case .notADuration: "is not a duration such as PT4S or PT1H2M3.5S"
        case .calendarUnits: "counts years or months, which have no fixed length; give days, hours, minutes and seconds"
        }
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and line breaks, as XML attribute
    /// values and `BaseURL` texts are compared.
    var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
