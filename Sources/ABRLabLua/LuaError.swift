import CLuaShim

/// A failure inside the Lua engine, with the interpreter's one-line message
/// (which names the chunk and line where Lua knows them).
public struct LuaError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case syntax, runtime, memory, type
        /// The instruction budget or the time backstop of ``LuaLimits`` ran out.
        case limit
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
        case Int32(ABRL_ERR_BUDGET), Int32(ABRL_ERR_SESSION_BUDGET), Int32(ABRL_ERR_TIME): kind = .limit
        default: kind = .runtime
        }
        let text: String
        switch status {
        case Int32(ABRL_ERR_MEMORY): text = "memory limit exceeded"
        case Int32(ABRL_ERR_BUDGET): text = message.isEmpty ? "instruction budget exceeded" : "\(message): instruction budget exceeded"
        case Int32(ABRL_ERR_SESSION_BUDGET):
            text = message.isEmpty ? "the session's instruction budget exceeded" : "\(message): the session's instruction budget exceeded"
        case Int32(ABRL_ERR_TIME): text = message.isEmpty ? "time limit exceeded" : "\(message): time limit exceeded"
        default: text = message
        }
        self.init(kind: kind, message: text)
    }

    public var description: String { message }
}
