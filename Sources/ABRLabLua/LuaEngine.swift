import CLuaShim

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An embedded, sandboxed Lua 5.4 interpreter. It is not `Sendable`: it belongs to the code
/// that made it. Strategy sessions get theirs from a per-thread cache, so each worker thread
/// has its own engine and none is ever used by two threads.
public final class LuaEngine {
    let handle: OpaquePointer
    public let limits: LuaLimits
    public let verbose: Bool
    /// The thread that made the engine; sessions run only there.
    let thread: pthread_t
    /// Compiled scripts as registry references.
    var compiledScripts: [LuaCompiledScriptKey: Int32] = [:]
    /// Most bytes of compiled scripts kept before they are dropped: as much as the cap again.
    var compiledCacheBytes: Int
    /// Bytes of compiled scripts kept now (not counted against the cap).
    var cachedScriptBytes: Int { abrl_engine_cache_bytes(handle) }

    /// Opens an engine; `verbose` adds tracebacks to runtime errors and lets `print` write to stderr.
    public init(limits: LuaLimits = .default, verbose: Bool = false) throws(LuaError) {
        var cLimits = limits.cLimits(verbose: verbose)
        guard let handle = abrl_engine_open(&cLimits) else {
            throw LuaError(kind: .memory, message: "cannot open a Lua engine within a memory cap of \(limits.memoryBytesPerEngine) bytes")
        }
        self.handle = handle
        self.limits = limits
        self.verbose = verbose
        self.thread = pthread_self()
        compiledCacheBytes = limits.memoryBytesPerEngine
    }

    deinit {
        abrl_engine_close(handle)
    }

    /// Runs `source` as a text chunk in a fresh sandbox environment and returns its first
    /// result as a number.
    public func evaluateNumber(_ source: String, sourceName: String = "=eval") throws(LuaError) -> Double {
        var value = 0.0
        let bytes = Array(source.utf8)
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                abrl_eval_number(handle, chars.baseAddress, chars.count, sourceName, &value)
            }
        }
        guard status == Int32(ABRL_OK) else { throw LuaError(status: status, message: message) }
        return value
    }

    /// Bytes the engine holds now, garbage included.
    public var memoryBytes: Int { abrl_engine_memory_bytes(handle) }

    /// Runs a full garbage collection, so that ``memoryBytes`` then counts what is still reachable.
    public func collectGarbage() { abrl_engine_collect(handle) }

    /// The shim's message for the last failed call.
    var message: String { String(cString: abrl_engine_message(handle)) }

    var isOnOwnThread: Bool { pthread_equal(thread, pthread_self()) != 0 }
}
