import CLuaShim

/// Parameters laid out for the shim: one text block of NUL-terminated keys and string values,
/// and C records that point into it by offset. Built once per script, passed per session.
struct LuaPackedParams: Sendable {
    private(set) var text: [CChar] = []
    private(set) var records: [abrl_param] = []

    init(_ params: [LuaParam]) {
        for param in params {
            var record = abrl_param()
            record.key_offset = append(param.key)
            switch param.value {
            case .number(let value):
                record.type = Int32(ABRL_PARAM_NUMBER)
                record.number = value
            case .integer(let value):
                record.type = Int32(ABRL_PARAM_INTEGER)
                record.integer = Int64(value)
            case .boolean(let value):
                record.type = Int32(ABRL_PARAM_BOOLEAN)
                record.boolean = value ? 1 : 0
            case .string(let value):
                record.type = Int32(ABRL_PARAM_STRING)
                record.string_offset = append(value)
                record.string_length = value.utf8.count
            }
            records.append(record)
        }
        if text.isEmpty { text = [0] }
    }

    private mutating func append(_ string: String) -> Int {
        let offset = text.count
        text += string.utf8.map { CChar(bitPattern: $0) }
        text.append(0)
        return offset
    }
}
