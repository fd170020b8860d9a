import ABRLab

/// A non-validating reader of XML 1.0 documents as MPDs are written: elements, attributes,
/// text, CDATA, comments, processing instructions and the five predefined entities with
/// character references. Anything else is malformed, reported at its line and byte column.
struct XMLReader {
    private let bytes: [UInt8]
    private let file: String
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var elements = 0

    /// Deepest nesting an MPD reaches is 7 (MPD, Period, AdaptationSet, Representation,
    /// SegmentTemplate, SegmentTimeline, S); far more means the document is not one.
    static let maximumDepth = 64
    /// Most elements read: hours of short segments as `S` elements or `SegmentURL`s at 10 levels.
    static let maximumElements = 2_000_000
    /// Longest text kept inside one element (a BaseURL is short); the rest is read and dropped.
    static let maximumTextBytes = 1 << 16

    init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    mutating func document() throws(InputError) -> XMLElementNode {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        try skipMisc()
        guard peek == UInt8(ascii: "<") else {
            throw fail(index == bytes.count ? "the document is empty" : "the document does not start with an element")
        }
        let root = try element(depth: 1)
        try skipMisc()
        guard index == bytes.count else { throw fail("content follows the root element") }
        return root
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func starts(with text: String) -> Bool {
        let literal = Array(text.utf8)
        return bytes.count - index >= literal.count && bytes[index..<(index + literal.count)].elementsEqual(literal)
    }

    private mutating func advance() {
        if bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }

    private mutating func advance(over text: String) {
        for _ in 0..<text.utf8.count { advance() }
    }

    /// Where the reader stands: a line, and a byte column from 1.
    private var position: (line: Int, column: Int) { (line, index - lineStart + 1) }

    private func fail(_ message: String, at place: (line: Int, column: Int)? = nil) -> InputError {
        let (line, column) = place ?? position
        return InputError(file: file, line: line, "column \(column): malformed XML (\(message))")
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    private mutating func skipSpace() {
        while let byte = peek, Self.isSpace(byte) { advance() }
    }

    /// Skips everything up to and over `end`; `what` names the construct left open.
    private mutating func skip(past end: String, what: String) throws(InputError) {
        let first = end.utf8.first
        while index < bytes.count {
            if bytes[index] == first, starts(with: end) {
                advance(over: end)
                return
            }
            advance()
        }
        throw fail("\(what) is not closed")
    }

    /// Whitespace, comments and processing instructions (the XML declaration among them).
    private mutating func skipMisc() throws(InputError) {
        while true {
            skipSpace()
            if starts(with: "<!--") {
                try skip(past: "-->", what: "a comment")
            } else if starts(with: "<?") {
                try skip(past: "?>", what: "a processing instruction")
            } else if starts(with: "<!DOCTYPE") {
                throw fail("a DOCTYPE is not allowed in an MPD; entities are not expanded")
            } else {
                return
            }
        }
    }

    private static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"), UInt8(ascii: ":"), 0x80...:
            true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
            !first
        default:
            false
        }
    }

    /// A name, as written (prefix included).
    private mutating func name() throws(InputError) -> String {
        let start = index
        while let byte = peek, Self.isNameByte(byte, first: index == start) { advance() }
        guard index > start else { throw fail("a name is missing or not valid") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }

    private mutating func element(depth: Int) throws(InputError) -> XMLElementNode {
        elements += 1
        guard depth <= Self.maximumDepth else { throw fail("elements nest deeper than \(Self.maximumDepth)") }
        guard elements <= Self.maximumElements else { throw fail("more than \(Self.maximumElements) elements") }
        let startLine = line
        advance()
        let qualified = try name()
        var attributes: [String: String] = [:]
        var written: Set<String> = []
        while true {
            let spaced = peek.map(Self.isSpace) ?? false
            skipSpace()
            guard let byte = peek else { throw fail("the document ends inside <\(InputError.excerpt(qualified))>") }
            if byte == UInt8(ascii: "/") {
                advance()
                guard peek == UInt8(ascii: ">") else { throw fail("a tag is not closed with >") }
                advance()
                return XMLElementNode(name: Self.localName(qualified), attributes: attributes, children: [], text: "", line: startLine)
            }
            if byte == UInt8(ascii: ">") {
                advance()
                break
            }
            guard spaced else { throw fail("attributes must be separated by spaces") }
            let place = position
            let attribute = try name()
            guard written.insert(attribute).inserted else { throw fail("the attribute \(InputError.excerpt(attribute)) is given twice", at: place) }
            skipSpace()
            guard peek == UInt8(ascii: "=") else { throw fail("the attribute \(InputError.excerpt(attribute)) has no value") }
            advance()
            skipSpace()
            attributes[Self.localName(attribute)] = try quoted()
        }
        var children: [XMLElementNode] = []
        var text: [UInt8] = []
        while true {
            guard let byte = peek else { throw fail("the document ends inside <\(InputError.excerpt(qualified))>") }
            if byte == UInt8(ascii: "<") {
                if starts(with: "</") {
                    let tag = position
                    advance(over: "</")
                    let closing = try name()
                    guard closing == qualified else {
                        throw fail("the end tag </\(InputError.excerpt(closing))> does not match <\(InputError.excerpt(qualified))> of line \(startLine)", at: tag)
                    }
                    skipSpace()
                    guard peek == UInt8(ascii: ">") else { throw fail("a tag is not closed with >") }
                    advance()
                    return XMLElementNode(
                        name: Self.localName(qualified), attributes: attributes, children: children,
                        text: String(decoding: text, as: UTF8.self), line: startLine
                    )
                } else if starts(with: "<!--") {
                    try skip(past: "-->", what: "a comment")
                } else if starts(with: "<![CDATA[") {
                    advance(over: "<![CDATA[")
                    let start = index
                    try skip(past: "]]>", what: "a CDATA section")
                    append(bytes[start..<(index - 3)], to: &text)
                } else if starts(with: "<?") {
                    try skip(past: "?>", what: "a processing instruction")
                } else if starts(with: "<!") {
                    throw fail("a declaration is not allowed inside an element")
                } else {
                    children.append(try element(depth: depth + 1))
                }
            } else if byte == UInt8(ascii: "&") {
                append(try reference(), to: &text)
            } else {
                advance()
                append(CollectionOfOne(byte), to: &text)
            }
        }
    }

    private func append(_ more: some Collection<UInt8>, to text: inout [UInt8]) {
        if text.count < Self.maximumTextBytes { text.append(contentsOf: more.prefix(Self.maximumTextBytes - text.count)) }
    }

    /// An attribute value in single or double quotes, references resolved.
    private mutating func quoted() throws(InputError) -> String {
        guard let quote = peek, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw fail("an attribute value is not quoted")
        }
        advance()
        var value: [UInt8] = []
        while true {
            guard let byte = peek else { throw fail("an attribute value is not closed") }
            if byte == quote {
                advance()
                return String(decoding: value, as: UTF8.self)
            }
            if byte == UInt8(ascii: "<") { throw fail("a < inside an attribute value") }
            if byte == UInt8(ascii: "&") {
                append(try reference(), to: &value)
            } else {
                advance()
                append(CollectionOfOne(byte), to: &value)
            }
        }
    }

    /// `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;`, `&#N;` or `&#xN;`, as UTF-8.
    private mutating func reference() throws(InputError) -> [UInt8] {
        let invalid = "an entity reference is not valid (write &amp; for &)"
        guard let end = bytes[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else { throw fail(invalid) }
        let body = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
        let scalar: Unicode.Scalar?
        switch body {
        case "lt": scalar = "<"
        case "gt": scalar = ">"
        case "amp": scalar = "&"
        case "quot": scalar = "\""
        case "apos": scalar = "'"
        default:
            if body.hasPrefix("#x") {
                scalar = UInt32(body.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            } else if body.hasPrefix("#") {
                scalar = UInt32(body.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
            } else {
                scalar = nil
            }
        }
        guard let scalar, scalar.value != 0 else { throw fail(invalid) }
        while index <= end { advance() }
        return Array(String(Character(scalar)).utf8)
    }
}
