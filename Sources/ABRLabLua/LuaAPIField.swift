import CLuaShim

/// One field of a ``LuaAPITable``.
public struct LuaAPIField: Equatable, Sendable {
    /// Its Lua type.
    public enum Kind: Equatable, Sendable {
        case integer, number, boolean, string
        /// Arrays of integers, numbers and tables.
        case integers, numbers, tables
        case table, function
    }

    /// When it is nil.
    public enum Absence: Equatable, Sendable {
        case never
        /// When the value does not exist yet or at all (`last_level` before a download).
        case whenUnset
        /// Off the live profile.
        case offLive
    }

    /// The unit its name ends with.
    public enum Unit: String, Equatable, Sendable {
        case seconds = "s"
        case kilobitsPerSecond = "kbps"
        case bytes
    }

    public let name: String
    public let kind: Kind
    /// Its LuaCATS type where it is narrower than `kind` (`abrlab.NetworkQuality` for a string).
    public let annotation: String?
    public let unit: Unit?
    public let absence: Absence
    /// An index: 1-based in Lua.
    public let isOneBased: Bool
    /// Its line in `abrlab.d.lua`.
    public let doc: String

    public var isOptional: Bool { absence != .never }

    init(_ field: abrl_api_field) {
        name = String(cString: field.name)
        kind = switch Int(field.type) {
        case Int(ABRL_TYPE_INTEGER): .integer
        case Int(ABRL_TYPE_NUMBER): .number
        case Int(ABRL_TYPE_BOOLEAN): .boolean
        case Int(ABRL_TYPE_STRING): .string
        case Int(ABRL_TYPE_INTEGERS): .integers
        case Int(ABRL_TYPE_NUMBERS): .numbers
        case Int(ABRL_TYPE_TABLES): .tables
        case Int(ABRL_TYPE_TABLE): .table
        default: .function
        }
        annotation = field.annotation.map { String(cString: $0) }
        unit = Unit(rawValue: String(cString: field.unit))
        absence = switch Int(field.nil_when) {
        case Int(ABRL_NIL_UNSET): .whenUnset
        case Int(ABRL_NIL_OFF_LIVE): .offLive
        default: .never
        }
        isOneBased = field.one_based != 0
        doc = String(cString: field.doc)
    }
}
