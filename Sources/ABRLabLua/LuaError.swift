import CLuaShim

/// A failure inside the Lua engine, with the interpreter's one-line message
/// (which names the chunk and line where Lua knows them).
public struct LuaError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case syntax, runtime, memory, type
    }

    public let kind: Kind
    public let message: String

    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    init(status: Int32, message: String) {
        let kind: Kind
        switch status {
        case Int32(ABRL_ERR_SYNTAX): kind = .syntax
        case Int32(ABRL_ERR_MEMORY): kind = .memory
        case Int32(ABRL_ERR_TYPE): kind = .type
        default: kind = .runtime
        }
        self.init(kind: kind, message: message)
    }

    public var description: String { message }
}
