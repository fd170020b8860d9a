import Foundation

/// Any value as JSON through its stored properties, so `run.json` records every parameter of a
/// profile — including ones added later — without a hand-kept list.
public indirect enum ReflectedValue: Encodable {
    case number(Double)
    case integer(Int)
    case boolean(Bool)
    case string(String)
    case null
    case array([ReflectedValue])
    case object([(String, ReflectedValue)])

    public init(_ value: Any) {
        switch value {
        case let number as Double: self = .number(number)
        case let number as Int: self = .integer(number)
        case let flag as Bool: self = .boolean(flag)
        case let text as String: self = .string(text)
        default:
            let mirror = Mirror(reflecting: value)
            switch mirror.displayStyle {
            case .optional:
                self = mirror.children.first.map { ReflectedValue($0.value) } ?? .null
            case .collection, .set:
                self = .array(mirror.children.map { ReflectedValue($0.value) })
            case .enum:
                // An enum case with associated values: its name and the values.
                if let payload = mirror.children.first, let label = payload.label {
                    self = .object([("case", .string(label))] + Self.fields(of: payload.value))
                } else {
                    self = .string(String(describing: value))
                }
            default:
                self = .object(Self.fields(of: value))
            }
        }
    }

    /// The labelled children of `value`; an unlabelled tuple payload gets `value`.
    private static func fields(of value: Any) -> [(String, ReflectedValue)] {
        let children = Mirror(reflecting: value).children
        guard !children.isEmpty else { return [("value", ReflectedValue(value))] }
        return children.map { child in
            let label = child.label.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 } ?? "value"
            return (label, ReflectedValue(child.value))
        }
    }

    private struct Key: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .number(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .integer(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .boolean(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .array(let values):
            var container = encoder.unkeyedContainer()
            for value in values { try container.encode(value) }
        case .object(let fields):
            var container = encoder.container(keyedBy: Key.self)
            for (key, value) in fields { try container.encode(value, forKey: Key(stringValue: key)) }
        }
    }
}
