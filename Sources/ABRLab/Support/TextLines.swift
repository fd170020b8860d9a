/// The lines of a text numbered from 1, split on `\n` without copying.
///
/// A trailing `\r` is dropped so files written on Windows read the same, and a leading UTF-8 byte
/// order mark is skipped. Loaders walk these lines instead of `String.split`, which works on
/// grapheme clusters and is far slower on large traces.
package struct TextLines: Sequence {
    package struct Line {
        /// 1-based line number, for error messages.
        package let number: Int
        package let text: Substring

        package var isBlank: Bool { text.utf8.allSatisfy(TextLines.isBlank) }

        /// Fields separated by runs of spaces or tabs.
        package var whitespaceFields: [Substring] {
            text.utf8.split(whereSeparator: TextLines.isBlank).map { Substring($0) }
        }

        /// Fields separated by commas, each trimmed of spaces and tabs; empty fields are kept.
        package var commaFields: [Substring] {
            text.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
                .map { TextLines.trimmed(Substring($0)) }
        }
    }

    package struct Iterator: IteratorProtocol {
        fileprivate var remaining: Substring
        fileprivate var number = 0

        package mutating func next() -> Line? {
            guard !remaining.isEmpty else { return nil }
            number += 1
            var line: Substring
            if let newline = remaining.utf8.firstIndex(of: UInt8(ascii: "\n")) {
                line = remaining[..<newline]
                remaining = remaining[remaining.utf8.index(after: newline)...]
            } else {
                line = remaining
                remaining = remaining[remaining.endIndex...]
            }
            if line.utf8.last == UInt8(ascii: "\r") {
                line = line[..<line.utf8.index(before: line.utf8.endIndex)]
            }
            return Line(number: number, text: line)
        }
    }

    private let text: Substring

    package init(_ text: String) {
        self.text = TextLines.droppingByteOrderMark(text)
    }

    package func makeIterator() -> Iterator { Iterator(remaining: text) }

    /// The first line that holds more than blanks.
    package var firstContentLine: Line? { first { !$0.isBlank } }

    static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    package static func trimmed(_ text: Substring) -> Substring {
        let utf8 = text.utf8
        guard let start = utf8.firstIndex(where: { !isBlank($0) }),
              let last = utf8.lastIndex(where: { !isBlank($0) }) else { return text[text.endIndex...] }
        return text[start...last]
    }

    /// The UTF-8 bytes of `text` after any byte order mark, copied in one go: element by
    /// element, the copy of a trace cost as much as parsing it.
    package static func bytesDroppingByteOrderMark(_ text: String) -> [UInt8] {
        let body = droppingByteOrderMark(text).utf8
        return body.withContiguousStorageIfAvailable { Array($0) } ?? Array(body)
    }

    static func droppingByteOrderMark(_ text: String) -> Substring {
        let utf8 = text.utf8
        guard utf8.starts(with: [0xEF, 0xBB, 0xBF]) else { return text[...] }
        return text[utf8.index(utf8.startIndex, offsetBy: 3)...]
    }
}
