/// Finds the modules and models a Lua text names with literal arguments, by reading its tokens:
/// comments and the insides of strings never count, and neither do fields or methods that
/// happen to be called `require` (`M.require "x"`). A name built at run time
/// (`require("lib." .. name)`) is not found here; the script's resources record it when a
/// session loads it.
///
/// Only a few tokens of look-behind are kept, so scanning takes constant memory whatever the text.
struct LuaReferenceScanner {
    private enum Token: Equatable {
        case name(Range<Int>)
        /// A string's contents; `nil` when it has escapes, whose value this scanner does not work out.
        case string(Range<Int>?)
        case punctuation(UInt8)
        /// `..`, `...`, `::`, numbers: tokens that only matter as not being anything above.
        case other
    }

    private let text: [UInt8]
    private var position = 0
    /// The last tokens, newest last: enough for `abrlab . model ( "x" )` and what precedes it.
    private var recent: [Token] = []
    private var found: [LuaReference] = []
    private var seen: Set<LuaReference> = []
    private let limit: Int

    /// The references in `text`, each once, in the order they first appear; at most `limit`.
    static func references(in text: [UInt8], limit: Int = 256) -> [LuaReference] {
        var scanner = LuaReferenceScanner(text: text, limit: limit)
        scanner.scan()
        return scanner.found
    }

    private init(text: [UInt8], limit: Int) {
        self.text = text
        self.limit = limit
    }

    private mutating func scan() {
        while found.count < limit, let token = nextToken() {
            recent.append(token)
            if recent.count > 7 { recent.removeFirst() }
            match()
        }
    }

    /// Checks whether the newest tokens end one of the four forms.
    private mutating func match() {
        let count = recent.count
        func token(_ back: Int) -> Token? { back < count ? recent[count - 1 - back] : nil }
        func isName(_ back: Int, _ word: String) -> Bool {
            guard case .name(let range) = token(back) else { return false }
            return text[range].elementsEqual(word.utf8)
        }
        func isPunctuation(_ back: Int, _ character: Character) -> Bool {
            token(back) == .punctuation(character.asciiValue ?? 0)
        }
        // `x.require` and `x:require` are fields; only the global functions count.
        func isGlobal(_ back: Int) -> Bool { !isPunctuation(back, ".") && !isPunctuation(back, ":") }
        func literal(_ back: Int) -> String? {
            guard case .string(let range?) = token(back) else { return nil }
            return String(decoding: text[range], as: UTF8.self)
        }
        // require "x" · require ( "x" ) · abrlab . model "x" · abrlab . model ( "x" )
        if let value = literal(0) {
            if isName(1, "require"), isGlobal(2) { add(.module(value)) }
            if isName(1, "model"), isPunctuation(2, "."), isName(3, "abrlab"), isGlobal(4) { add(.model(value)) }
        } else if isPunctuation(0, ")"), let value = literal(1), isPunctuation(2, "(") {
            if isName(3, "require"), isGlobal(4) { add(.module(value)) }
            if isName(3, "model"), isPunctuation(4, "."), isName(5, "abrlab"), isGlobal(6) { add(.model(value)) }
        }
    }

    private mutating func add(_ reference: LuaReference) {
        if seen.insert(reference).inserted { found.append(reference) }
    }

    private func byte(_ offset: Int = 0) -> UInt8? {
        position + offset < text.count ? text[position + offset] : nil
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z"))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func nextToken() -> Token? {
        while let current = byte() {
            switch current {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0B, 0x0C:
                position += 1
            case UInt8(ascii: "-") where byte(1) == UInt8(ascii: "-"):
                position += 2
                if longBracketLevel() != nil { _ = longBracket() } else { skipLine() }
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                return shortString(quote: current)
            case UInt8(ascii: "[") where longBracketLevel() != nil:
                return .string(longBracket())
            case _ where Self.isNameStart(current):
                let start = position
                while let next = byte(), Self.isNameStart(next) || Self.isDigit(next) { position += 1 }
                return .name(start..<position)
            case _ where Self.isDigit(current) || (current == UInt8(ascii: ".") && byte(1).map(Self.isDigit) == true):
                skipNumber()
                return .other
            case UInt8(ascii: "."), UInt8(ascii: ":"):
                var length = 1
                while length < 3, byte(length) == current { length += 1 }
                position += length
                return length == 1 ? .punctuation(current) : .other
            default:
                position += 1
                return .punctuation(current)
            }
        }
        return nil
    }

    private mutating func skipLine() {
        while let next = byte(), next != UInt8(ascii: "\n") { position += 1 }
    }

    private mutating func skipNumber() {
        while let next = byte() {
            let exponent = (next | 0x20) == UInt8(ascii: "e") || (next | 0x20) == UInt8(ascii: "p")
            guard Self.isNameStart(next) || Self.isDigit(next) || next == UInt8(ascii: ".") else { break }
            position += 1
            if exponent, let sign = byte(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { position += 1 }
        }
    }

    /// A short string's contents; `nil` when it holds an escape. Ends at its quote, or at the end
    /// of the line when unfinished (Lua refuses that; this scanner only must not run away).
    private mutating func shortString(quote: UInt8) -> Token {
        position += 1
        let start = position
        var escaped = false
        while let next = byte(), next != quote, next != UInt8(ascii: "\n") {
            if next == UInt8(ascii: "\\") {
                escaped = true
                position += 1
            }
            position += 1
        }
        let end = min(position, text.count)
        if byte() == quote { position += 1 }
        return .string(escaped ? nil : start..<end)
    }

    /// `[`, then `=` repeated n times, then `[` at the current position: n; otherwise `nil`.
    private func longBracketLevel() -> Int? {
        guard byte() == UInt8(ascii: "[") else { return nil }
        var level = 0
        while byte(1 + level) == UInt8(ascii: "=") { level += 1 }
        return byte(1 + level) == UInt8(ascii: "[") ? level : nil
    }

    /// Skips a long bracket (`[==[ … ]==]`) and returns its contents without a first newline,
    /// as Lua reads it; to the end of the text when unfinished.
    private mutating func longBracket() -> Range<Int> {
        let level = longBracketLevel() ?? 0
        position += level + 2
        if byte() == UInt8(ascii: "\r") || byte() == UInt8(ascii: "\n") {
            let first = byte()
            position += 1
            if let second = byte(), second != first, second == UInt8(ascii: "\r") || second == UInt8(ascii: "\n") { position += 1 }
        }
        let start = position
        while let next = byte() {
            if next == UInt8(ascii: "]") {
                var equals = 0
                while byte(1 + equals) == UInt8(ascii: "=") { equals += 1 }
                if equals == level, byte(1 + equals) == UInt8(ascii: "]") {
                    let end = position
                    position += level + 2
                    return start..<end
                }
            }
            position += 1
        }
        return start..<text.count
    }
}
