import ABRLab
import Foundation
import Testing

/// `PrettyJSON.Value` renders byte for byte what `JSONEncoder` writes for the same value, so a
/// document may use either for any part.
@Suite struct PrettyJSONTests {
    /// The same value through `JSONEncoder`'s own containers.
    struct Encoded: Encodable {
        let value: PrettyJSON.Value

        struct Key: CodingKey {
            let stringValue: String
            init(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: Encoder) throws {
            switch value {
            case .string(let text):
                var container = encoder.singleValueContainer()
                try container.encode(text)
            case .integer(let number):
                var container = encoder.singleValueContainer()
                try container.encode(number)
            case .boolean(let flag):
                var container = encoder.singleValueContainer()
                try container.encode(flag)
            case .null:
                var container = encoder.singleValueContainer()
                try container.encodeNil()
            case .object(let members):
                var container = encoder.container(keyedBy: Key.self)
                for (key, member) in members { try container.encode(Encoded(value: member), forKey: Key(stringValue: key)) }
            case .array(let elements):
                var container = encoder.unkeyedContainer()
                for element in elements { try container.encode(Encoded(value: element)) }
            }
        }
    }

    /// A document holding the value at some depth, written both ways.
    struct Document<Part: Encodable>: Encodable {
        let before: String
        let nested: [String: [Part]]
        let after: Int
    }

    static func bothWays(_ value: PrettyJSON.Value) throws -> (fast: String, encoder: String) {
        let fast = try PrettyJSON.encode(Document(before: "a/b", nested: ["inner": [PrettyJSON.Verbatim(value)]], after: 1))
        let slow = try PrettyJSON.encoder().encode(Document(before: "a/b", nested: ["inner": [Encoded(value: value)]], after: 1))
        return (String(decoding: fast, as: UTF8.self), String(decoding: slow, as: UTF8.self))
    }

    static let trees: [PrettyJSON.Value] = [
        .string("plain"),
        .integer(0), .integer(-42), .integer(.max), .integer(.min),
        .boolean(true), .boolean(false), .null,
        .array([]), .object([]),
        .array([.array([]), .object([]), .integer(1)]),
        .object([("name", .string("trace0001")), ("file", .object([("path", .string("/a/b c.json")), ("bytes", .integer(2511)), ("sha256", .string("ab"))]))]),
        // Key order: case, digits, prefixes, non-ASCII.
        .object([("b", .integer(1)), ("B", .integer(2)), ("a10", .integer(3)), ("a9", .integer(4)), ("a", .null), ("é", .integer(5)), ("_", .integer(6)), ("Z", .boolean(true))]),
        .array([.object([("x", .array([.object([("y", .array([.string("deep")]))])]))])]),
    ]

    @Test(arguments: trees)
    func rendersWhatTheEncoderWrites(value: PrettyJSON.Value) throws {
        let (fast, encoder) = try Self.bothWays(value)
        #expect(fast == encoder)
    }

    /// Every ASCII byte, and characters beyond it that some encoders escape.
    @Test func escapesStringsAsTheEncoderDoes() throws {
        var every = ""
        for scalar in 0..<0x80 { every.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
        for text in [every, "é😀\u{2028}\u{2029}\u{85}\u{FEFF}\u{FFFF}\u{10FFFF}", "\"\\/", ""] {
            let (fast, encoder) = try Self.bothWays(.array([.string(text), .object([(text, .string(text))])]))
            #expect(fast == encoder)
        }
    }

    @Test func placesSeveralValuesInOneDocument() throws {
        let values: [PrettyJSON.Value] = [.array([.integer(1)]), .string("two"), .object([("k", .array([]))])]
        let fast = try PrettyJSON.encode(values.map(PrettyJSON.Verbatim.init))
        let slow = try PrettyJSON.encoder().encode(values.map { Encoded(value: $0) })
        #expect(String(decoding: fast, as: UTF8.self) == String(decoding: slow, as: UTF8.self))
    }

    @Test func refusesAVerbatimValueOutsideItsEncoder() {
        #expect(throws: EncodingError.self) { try JSONEncoder().encode([PrettyJSON.Verbatim(.integer(1))]) }
    }
}
