import ABRLab

/// Typed reads of MPD attributes, each failure an `InputError` at the element's line that names
/// the element and attribute as the MPD spells them.
struct MPDAttributes {
    let element: XMLElementNode
    let file: String

    init(_ element: XMLElementNode, file: String) {
        self.element = element
        self.file = file
    }

    func string(_ name: String) -> String? { element.attributes[name]?.trimmingWhitespace }

    /// A non-negative integer (`xs:unsignedInt`, `xs:unsignedLong`), at most `maximum`.
    func unsigned(_ name: String, maximum: Int = Int(Int64.max)) throws(InputError) -> Int? {
        guard let text = string(name) else { return nil }
        guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }), let value = Int(text), value <= maximum else {
            throw error("\(name)=\"\(InputError.excerpt(text))\" is not a whole number from 0 to \(maximum)")
        }
        return value
    }

    /// A positive integer.
    func positive(_ name: String, maximum: Int = Int(Int64.max)) throws(InputError) -> Int? {
        guard let value = try unsigned(name, maximum: maximum) else { return nil }
        guard value > 0 else { throw error("\(name) must be above 0") }
        return value
    }

    /// An integer that may be negative (`S@r`).
    func integer(_ name: String) throws(InputError) -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text), abs(value) <= Int(Int32.max) else { throw error("\(name)=\"\(InputError.excerpt(text))\" is not a whole number") }
        return value
    }

    /// An `xs:duration` in seconds.
    func durationSeconds(_ name: String) throws(InputError) -> Double? {
        guard let text = string(name) else { return nil }
        switch MPDDuration.seconds(text) {
        case .success(let seconds): return seconds
        case .failure(let failure): throw error("\(name)=\"\(InputError.excerpt(text))\" \(failure.message)")
        }
    }

    /// A byte range `first-last` (both included), or `first-` to the end of the resource.
    func byteRange(_ name: String) throws(InputError) -> MPDByteRange? {
        guard let text = string(name) else { return nil }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let digits: (Substring) -> Bool = { !$0.isEmpty && $0.utf8.allSatisfy { (48...57).contains($0) } }
        guard parts.count == 2, digits(parts[0]), let first = Int(parts[0]), first <= Int(Int64.max / 2) else {
            throw error("\(name)=\"\(InputError.excerpt(text))\" is not a byte range such as 0-999")
        }
        if parts[1].isEmpty { return MPDByteRange(firstByte: first, lastByte: nil) }
        guard digits(parts[1]), let last = Int(parts[1]), last >= first, last <= Int(Int64.max / 2) else {
            throw error("\(name)=\"\(InputError.excerpt(text))\" is not a byte range such as 0-999 (first byte, then last byte, at least the first)")
        }
        return MPDByteRange(firstByte: first, lastByte: last)
    }

    func error(_ message: String) -> InputError {
        InputError(file: file, line: element.line, "\(element.name) \(message)")
    }
}
