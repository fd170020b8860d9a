// The one-line JSON replay.mjs writes (`JSON.stringify`), and the E.2 records the dashjs strategies write: members in insertion order, numbers as JavaScript prints
// them, NaN and infinities as null.

indirect enum DashJSOutputJSON {
    case object([(String, DashJSOutputJSON)])
    case array([DashJSOutputJSON])
    case number(Double)
    case string(String)
    case bool(Bool)
    case null

    static func optionalNumber(_ value: Double?) -> DashJSOutputJSON { value.map { .number($0) } ?? .null }

    var text: String {
        var out = ""
        append(to: &out)
        return out
    }

    func append(to out: inout String) {
        switch self {
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                Self.appendString(member.0, to: &out)
                out += ":"
                member.1.append(to: &out)
            }
            out += "}"
        case .array(let elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                element.append(to: &out)
            }
            out += "]"
        case .number(let value): out += value.isFinite ? DashJSNumberText.javaScript(value) : "null"
        case .string(let text): Self.appendString(text, to: &out)
        case .bool(let flag): out += flag ? "true" : "false"
        case .null: out += "null"
        }
    }

    /// JSON.stringify's escaping, which the core's JSON writer shares: the two-character escapes,
    /// \u00XX for other control characters.
    static func appendString(_ text: String, to out: inout String) {
        var bytes: [UInt8] = []
        PrettyJSON.appendString(text, to: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }
}
