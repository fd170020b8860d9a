import CLuaShim

/// An embedded Lua 5.4 interpreter. It belongs to the thread that made it: it is not
/// `Sendable` and must not be shared.
public final class LuaEngine {
    private let handle: OpaquePointer

    public init() throws(LuaError) {
        guard let handle = abrl_engine_open() else {
            throw LuaError(kind: .memory, message: "cannot open a Lua state: out of memory")
        }
        self.handle = handle
    }

    deinit {
        abrl_engine_close(handle)
    }

    /// Runs `source` as a text chunk and returns its first result as a number.
    public func evaluateNumber(_ source: String, chunkName: String = "=eval") throws(LuaError) -> Double {
        var value = 0.0
        var message = [CChar](repeating: 0, count: 512)
        let bytes = Array(source.utf8)
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                abrl_eval_number(handle, chars.baseAddress, chars.count, chunkName, &value, &message, message.count)
            }
        }
        guard status == Int32(ABRL_OK) else {
            throw LuaError(status: status, message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return value
    }
}
