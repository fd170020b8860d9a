import ABRLab
import Foundation

/// One line of a playlist as RFC 8216 §4.1 sorts them: a tag, a URI, or nothing (a blank line or
/// a comment, i.e. `#` not followed by `EXT`).
enum HLSLine {
    case tag(name: String, value: Substring?)
    case uri(String)
    case ignorable

    init(_ raw: Substring) {
        let text = TextLines.trimmed(raw)
        if text.isEmpty {
            self = .ignorable
        } else if text.hasPrefix("#EXT") {
            let body = text.dropFirst()
            if let colon = body.firstIndex(of: ":") {
                self = .tag(name: String(body[..<colon]), value: body[body.index(after: colon)...])
            } else {
                self = .tag(name: String(body), value: nil)
            }
        } else if text.hasPrefix("#") {
            self = .ignorable
        } else {
            self = .uri(String(text))
        }
    }

    /// The lines of `text`, numbered, after checking that the first one is `#EXTM3U`.
    static func lines(of text: String, file: String) throws(InputError) -> [(number: Int, line: HLSLine)] {
        var lines: [(number: Int, line: HLSLine)] = []
        for line in TextLines(text) {
            if lines.isEmpty, TextLines.trimmed(line.text) != "#EXTM3U" {
                throw InputError(file: file, line: line.number, "a playlist starts with #EXTM3U")
            }
            lines.append((line.number, HLSLine(line.text)))
        }
        guard !lines.isEmpty else { throw InputError(file: file, "the playlist is empty; it should start with #EXTM3U") }
        return lines
    }
}

/// A tag being read: where it is, for error messages, and typed access to its value.
struct HLSTagReader {
    let file: String
    let line: Int
    let tag: String
    let value: Substring?

    func error(_ message: String) -> InputError {
        InputError(file: file, line: line, message)
    }

    /// The text after the colon; an error when the tag has none.
    func requiredValue() throws(InputError) -> Substring {
        guard let value, !TextLines.trimmed(value).isEmpty else { throw error("\(tag) needs a value after its colon") }
        return TextLines.trimmed(value)
    }

    func attributes() throws(InputError) -> HLSAttributeList {
        let text = try requiredValue()
        do {
            return try HLSAttributeList(parsing: text)
        } catch {
            throw self.error("\(tag): \(error.message)")
        }
    }

    /// A whole number ≥ 0, e.g. `EXT-X-TARGETDURATION:4`.
    func wholeNumber(_ text: Substring, what: String) throws(InputError) -> Int {
        guard !text.isEmpty, text.utf8.allSatisfy(HLSAttributeList.isDigit), let value = Int(text) else {
            throw error("\(what) '\(text)' is not a whole number")
        }
        return value
    }

    func string(_ attributes: HLSAttributeList, _ name: String) -> String? {
        attributes[name]?.string
    }

    func requiredString(_ attributes: HLSAttributeList, _ name: String) throws(InputError) -> String {
        guard let value = attributes[name]?.string else { throw error("\(tag) needs \(name)") }
        return value
    }

    /// A decimal-integer attribute, e.g. `BANDWIDTH`.
    func integer(_ attributes: HLSAttributeList, _ name: String) throws(InputError) -> Int? {
        guard let value = attributes[name] else { return nil }
        guard let integer = value.integer else { throw error("\(tag) \(name) '\(value.text)' is not a whole number") }
        return integer
    }

    /// A decimal-float (or integer) attribute ≥ 0, e.g. `DURATION`.
    func seconds(_ attributes: HLSAttributeList, _ name: String) throws(InputError) -> Double? {
        guard let value = attributes[name] else { return nil }
        guard let number = value.number, number.isFinite else {
            throw error("\(tag) \(name) '\(value.text)' is not a number of seconds")
        }
        guard number >= 0 else { throw error("\(tag) \(name) is \(value.text); it must be ≥ 0") }
        return number
    }

    /// An ISO 8601 date, quoted or not.
    func date(_ text: String, what: String) throws(InputError) -> Date {
        guard let date = HLSDateTime.parse(text) else {
            throw error("\(what) '\(text)' is not an ISO 8601 date and time such as 2025-10-29T10:30:45.123Z")
        }
        return date
    }
}
