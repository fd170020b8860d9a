extension LocatedJSON {
    /// Parses a whole JSON document. Errors name `file` and the line where parsing stopped.
    package static func parse(_ text: String, file: String) throws(InputError) -> LocatedJSON {
        try parse(bytes: TextLines.bytesDroppingByteOrderMark(text), file: file)
    }

    /// ``parse(_:file:)`` of a document's bytes, its byte order mark already dropped.
    package static func parse(bytes: [UInt8], file: String) throws(InputError) -> LocatedJSON {
        var parser = Parser(bytes: bytes, file: file)
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.position == parser.bytes.count else {
            throw parser.error("unexpected \(parser.describeCurrent()) after the JSON value")
        }
        return value
    }

    /// A byte-level recursive-descent parser; it tracks the line as it skips whitespace.
    private struct Parser {
        let bytes: [UInt8]
        let file: String
        var position = 0
        var line = 1

        /// Deep enough for any trace or manifest, shallow enough never to exhaust the stack.
        private static let maximumDepth = 256

        init(bytes: [UInt8], file: String) {
            self.bytes = bytes
            self.file = file
        }

        func error(_ message: String) -> InputError { InputError(file: file, line: line, message) }

        func describeCurrent() -> String {
            guard position < bytes.count else { return "end of file" }
            let byte = bytes[position]
            guard byte >= 0x20, byte < 0x7F else { return "byte 0x\(String(byte, radix: 16))" }
            return "'\(Character(Unicode.Scalar(byte)))'"
        }

        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\n"): line += 1
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): break
                default: return
                }
                position += 1
            }
        }

        mutating func parseValue(depth: Int) throws(InputError) -> LocatedJSON {
            skipWhitespace()
            guard depth < Self.maximumDepth else { throw error("JSON nested more than \(Self.maximumDepth) levels deep") }
            guard position < bytes.count else { throw error("unexpected end of file; expected a JSON value") }
            let startLine = line
            switch bytes[position] {
            case UInt8(ascii: "{"): return LocatedJSON(value: try parseObject(depth: depth), line: startLine)
            case UInt8(ascii: "["): return LocatedJSON(value: try parseArray(depth: depth), line: startLine)
            case UInt8(ascii: "\""): return LocatedJSON(value: .string(try parseString()), line: startLine)
            case UInt8(ascii: "t"): try expectLiteral("true"); return LocatedJSON(value: .bool(true), line: startLine)
            case UInt8(ascii: "f"): try expectLiteral("false"); return LocatedJSON(value: .bool(false), line: startLine)
            case UInt8(ascii: "n"): try expectLiteral("null"); return LocatedJSON(value: .null, line: startLine)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return LocatedJSON(value: .number(try parseNumber()), line: startLine)
            default:
                throw error("unexpected \(describeCurrent()); expected a JSON value")
            }
        }

        private mutating func parseObject(depth: Int) throws(InputError) -> Value {
            position += 1
            var members: [(key: String, value: LocatedJSON)] = []
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                    throw error("unexpected \(describeCurrent()); expected a quoted key")
                }
                let key = try parseString()
                guard !members.contains(where: { $0.key == key }) else { throw error("duplicate key \"\(key)\"") }
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                    throw error("unexpected \(describeCurrent()); expected ':' after key \"\(key)\"")
                }
                position += 1
                members.append((key, try parseValue(depth: depth + 1)))
                skipWhitespace()
                guard position < bytes.count else { throw error("unexpected end of file; expected ',' or '}'") }
                position += 1
                switch bytes[position - 1] {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "}"): return .object(members)
                default:
                    position -= 1
                    throw error("unexpected \(describeCurrent()); expected ',' or '}'")
                }
            }
        }

        private mutating func parseArray(depth: Int) throws(InputError) -> Value {
            position += 1
            var elements: [LocatedJSON] = []
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            while true {
                elements.append(try parseValue(depth: depth + 1))
                skipWhitespace()
                guard position < bytes.count else { throw error("unexpected end of file; expected ',' or ']'") }
                position += 1
                switch bytes[position - 1] {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "]"): return .array(elements)
                default:
                    position -= 1
                    throw error("unexpected \(describeCurrent()); expected ',' or ']'")
                }
            }
        }

        private mutating func parseNumber() throws(InputError) -> Double {
            let start = position
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"),
                     UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
                    position += 1
                default:
                    let text = String(decoding: bytes[start..<position], as: UTF8.self)
                    guard let number = Double(text) else { throw error("'\(text)' is not a number") }
                    return number
                }
            }
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            guard let number = Double(text) else { throw error("'\(text)' is not a number") }
            return number
        }

        private mutating func expectLiteral(_ literal: StaticString) throws(InputError) {
            let count = literal.utf8CodeUnitCount
            let matches = literal.withUTF8Buffer { expected in
                position + count <= bytes.count && bytes[position..<position + count].elementsEqual(expected)
            }
            guard matches else { throw error("unexpected \(describeCurrent()); expected a JSON value") }
            position += count
        }

        private mutating func parseString() throws(InputError) -> String {
            position += 1
            let start = position
            var hasEscapes = false
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\""):
                    defer { position += 1 }
                    return hasEscapes ? try unescape(bytes[start..<position])
                        : String(decoding: bytes[start..<position], as: UTF8.self)
                case UInt8(ascii: "\\"):
                    hasEscapes = true
                    position += 2
                case UInt8(ascii: "\n"):
                    throw error("a string runs past the end of its line")
                default:
                    position += 1
                }
            }
            throw error("unexpected end of file inside a string")
        }

        private func unescape(_ raw: ArraySlice<UInt8>) throws(InputError) -> String {
            var scalars = String.UnicodeScalarView()
            var utf8 = String(decoding: raw, as: UTF8.self).unicodeScalars.makeIterator()
            var pendingHighSurrogate: UInt32?
            while let scalar = utf8.next() {
                guard scalar == "\\" else {
                    if pendingHighSurrogate != nil {
                        pendingHighSurrogate = nil
                        scalars.append("\u{FFFD}")
                    }
                    scalars.append(scalar)
                    continue
                }
                guard let escaped = utf8.next() else { throw error("a string ends inside an escape") }
                switch escaped {
                case "\"", "\\", "/": scalars.append(escaped)
                case "b": scalars.append("\u{08}")
                case "f": scalars.append("\u{0C}")
                case "n": scalars.append("\n")
                case "r": scalars.append("\r")
                case "t": scalars.append("\t")
                case "u":
                    var hex = ""
                    for _ in 0..<4 { if let digit = utf8.next() { hex.unicodeScalars.append(digit) } }
                    guard hex.count == 4, let code = UInt32(hex, radix: 16) else {
                        throw error("'\\u\(hex)' is not a valid escape")
                    }
                    if let high = pendingHighSurrogate {
                        pendingHighSurrogate = nil
                        if (0xDC00...0xDFFF).contains(code) {
                            scalars.append(Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)) ?? "\u{FFFD}")
                            continue
                        }
                        scalars.append("\u{FFFD}")
                    }
                    if (0xD800...0xDBFF).contains(code) {
                        pendingHighSurrogate = code
                    } else {
                        scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                    }
                default:
                    throw error("'\\\(escaped)' is not a valid escape")
                }
            }
            if pendingHighSurrogate != nil { scalars.append("\u{FFFD}") }
            return String(scalars)
        }
    }
}
