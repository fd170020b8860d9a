import ABRLab
import Foundation
import Testing
import TestSupport

/// `PrettyJSON.Value` renders byte for byte what `JSONEncoder` writes for the same value, so a
/// document may use either for any part.
@Suite(.tags(.core), .selectedByTags) struct PrettyJSONTests {
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
            case .encoded:
                throw EncodingError.invalidValue(value, .init(codingPath: encoder.codingPath, debugDescription: "already encoded"))
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

    /// A row of a long list, with what the encoder formats its own way: numbers of every kind,
    /// absent optionals, empty and nested containers, escaped strings.
    struct Row: Encodable {
        let id: String
        let values: [Double]
        let count: Int
        let missing: Double?
        let present: Double?
        let empty: [String]
        let none: [String: Int]
        let nested: [[String: [Double]]]
    }

    static let rows = (0..<40).map { index in
        Row(
            id: "bola[gp=\(index)]/\"é\"\t", values: [0.1, 3, 1e-7, 1e300, -0.0, Double(index) / 7, 123_456_789.125], count: index,
            missing: nil, present: index.isMultiple(of: 2) ? 2.5 : nil, empty: [], none: [:],
            nested: [["a": []], ["b": [1.5, Double(index)]], [:]]
        )
    }

    /// Elements encoded one by one (`array(encoding:)`) come out as the encoder writes the whole
    /// list, at any depth, and an empty list too.
    @Test(arguments: [rows, [], Array(rows.prefix(1))])
    func anArrayEncodedElementByElementIsWhatTheEncoderWrites(rows: [Row]) throws {
        let fast = try PrettyJSON.encode(Document(before: "x", nested: ["list": [PrettyJSON.Verbatim(try PrettyJSON.array(encoding: rows))]], after: 2))
        let slow = try PrettyJSON.encoder().encode(Document(before: "x", nested: ["list": [rows]], after: 2))
        #expect(String(decoding: fast, as: UTF8.self) == String(decoding: slow, as: UTF8.self))
        let top = try PrettyJSON.encode(PrettyJSON.Verbatim(try PrettyJSON.array(encoding: rows)))
        #expect(String(decoding: top, as: UTF8.self) == String(decoding: try PrettyJSON.encoder().encode(rows), as: UTF8.self))
    }

    @Test func refusesAVerbatimValueOutsideItsEncoder() {
        #expect(throws: EncodingError.self) { try JSONEncoder().encode([PrettyJSON.Verbatim(.integer(1))]) }
    }
}
