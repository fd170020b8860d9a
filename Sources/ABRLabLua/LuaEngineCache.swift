#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The current thread's engines, one per limits and verbosity, in thread-specific storage.
///
/// Each worker thread of the compare runner builds its own engines on first use and drops them
/// when it exits, so an engine is never shared between threads and no lock is needed.
final class LuaEngineCache {
    private struct Key: Hashable {
        var limits: LuaLimits
        var verbose: Bool
    }

    private var engines: [Key: LuaEngine] = [:]

    /// The calling thread's cache, made on first use.
    static var current: LuaEngineCache {
        if let pointer = pthread_getspecific(cacheKey) {
            return Unmanaged<LuaEngineCache>.fromOpaque(pointer).takeUnretainedValue()
        }
        let cache = LuaEngineCache()
        pthread_setspecific(cacheKey, Unmanaged.passRetained(cache).toOpaque())
        return cache
    }

    /// This thread's engine for `limits`, opened on first use.
    func engine(limits: LuaLimits, verbose: Bool) throws(LuaError) -> LuaEngine {
        let key = Key(limits: limits, verbose: verbose)
        if let engine = engines[key] { return engine }
        let engine = try LuaEngine(limits: limits, verbose: verbose)
        engines[key] = engine
        return engine
    }
}

/// Releases a thread's cache, closing its engines (sessions still holding one keep it open).
private let cacheKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { pointer in
        guard let pointer else { return }
        Unmanaged<LuaEngineCache>.fromOpaque(pointer).release()
    }
    return key
}()
