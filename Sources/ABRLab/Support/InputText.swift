/// The text of an error that may name settings: literal text and ``Setting``s, kept apart so
/// each front end names a setting its own way (``rendered(naming:)``); `"use a longer \(Setting.stepS)"`.
public struct InputText: Equatable, Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    public enum Part: Equatable, Sendable {
        case text(String)
        case setting(Setting)
    }

    public private(set) var parts: [Part]

    public init(stringLiteral value: String) {
        parts = [.text(value)]
    }

    public init(stringInterpolation: Interpolation) {
        parts = stringInterpolation.parts
    }

    /// Text that names no setting.
    public init(verbatim text: String) {
        parts = [.text(text)]
    }

    /// The text, each setting named by `naming`.
    public func rendered(naming: (Setting) -> String) -> String {
        parts.map { part in
            switch part {
            case .text(let text): text
            case .setting(let setting): naming(setting)
            }
        }.joined()
    }

    /// Settings named by their keys.
    public var description: String { rendered(naming: \.rawValue) }

    public static func + (lhs: InputText, rhs: InputText) -> InputText {
        "\(lhs)\(rhs)"
    }

    /// This text followed by `text`, kept as it is.
    func appending(verbatim text: String) -> InputText {
        var copy = self
        copy.parts.append(.text(text))
        return copy
    }

    /// This text with `transform` applied to its literal parts.
    func mapText(_ transform: (String) -> String) -> InputText {
        var copy = self
        copy.parts = parts.map { part in
            if case .text(let text) = part { return .text(transform(text)) }
            return part
        }
        return copy
    }

    public struct Interpolation: StringInterpolationProtocol {
        var parts: [Part] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) {
            append(literal)
        }

        public mutating func appendInterpolation(_ setting: Setting) {
            parts.append(.setting(setting))
        }

        public mutating func appendInterpolation(_ text: InputText) {
            for part in text.parts {
                switch part {
                case .text(let text): append(text)
                case .setting(let setting): parts.append(.setting(setting))
                }
            }
        }

        public mutating func appendInterpolation<T>(_ value: T) {
            append(String(describing: value))
        }

        /// Text joins the text before it, so equal messages have equal parts however they were written.
        private mutating func append(_ text: String) {
            if case .text(let before)? = parts.last {
                parts[parts.count - 1] = .text(before + text)
            } else if !text.isEmpty {
                parts.append(.text(text))
            }
        }
    }
}
