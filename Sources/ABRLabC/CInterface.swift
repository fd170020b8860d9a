import ABRLab

// The C interface the Python package loads with ctypes. Every function returns 0 or an
// ``EnvError`` code and writes the error's message into the caller's buffer; none traps on
// bad input. An environment pointer comes from `abrlab_env_create`, `abrlab_env_close` frees
// its sessions (later calls answer "closed"), and `abrlab_env_destroy` frees the pointer.

/// Writes the error's message into the caller's buffer, cut to fit, NUL-terminated, and after it
/// its JSON detail, NUL-terminated, when the detail fits whole (else an empty one, where a byte is left).
func report(_ error: EnvError, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int) -> Int32 {
    write(error.message, buffer, capacity)
    guard let buffer, capacity > 0 else { return error.code }
    var end = 0
    while buffer[end] != 0 { end += 1 }
    let detail = Array(error.detailJSON.utf8)
    let start = end + 1
    guard start < capacity else { return error.code }
    if start + detail.count < capacity {
        for (index, byte) in detail.enumerated() { buffer[start + index] = CChar(bitPattern: byte) }
        buffer[start + detail.count] = 0
    } else {
        buffer[start] = 0
    }
    return error.code
}

/// Runs `body` on the open environment `pointer` holds, one caller at a time: 0, or the error's
/// code with its message in the caller's buffer.
func calling(
    _ pointer: UnsafeMutableRawPointer, _ message: UnsafeMutablePointer<CChar>?, _ capacity: Int,
    _ body: (Environment) throws(EnvError) -> Void
) -> Int32 {
    do {
        try Unmanaged<EnvironmentHandle>.fromOpaque(pointer).takeUnretainedValue().with(body)
        return 0
    } catch {
        return report(error, message, capacity)
    }
}

func write(_ text: String, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int) {
    guard let buffer, capacity > 0 else { return }
    let bytes = Array(text.utf8.prefix(capacity - 1))
    for (index, byte) in bytes.enumerated() { buffer[index] = CChar(bitPattern: byte) }
    buffer[bytes.count] = 0
}

/// The open environment `pointer` holds, for the calls made while the package sets up (never
/// after `close`); `nil` once closed.
func environment(_ pointer: UnsafeMutableRawPointer) -> Environment? {
    try? Unmanaged<EnvironmentHandle>.fromOpaque(pointer).takeUnretainedValue().with { $0 }
}

/// The C ABI's version; the package refuses a library of another.
@_cdecl("abrlab_abi_version")
public func abrlabABIVersion() -> Int32 { 5 }

/// Creates an environment of `slots` sessions (at most ``EnvMemory/maxSlots``) from the JSON
/// options, stepped on `threads` worker threads of its own (1: on the caller's thread); one the
/// process cannot hold is refused with ``EnvError/outOfMemory`` before anything is allocated.
@_cdecl("abrlab_env_create")
public func abrlabEnvCreate(
    _ json: UnsafePointer<CChar>?, _ slots: Int32, _ threads: Int32, _ out: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ message: UnsafeMutablePointer<CChar>?, _ capacity: Int
) -> Int32 {
    guard let json, let out else { return report(.invalid("null argument"), message, capacity) }
    guard slots >= 1, slots <= EnvMemory.maxSlots else {
        return report(.setting("num_envs must be from 1 to \(EnvMemory.maxSlots), not \(slots)", keywords: ["num_envs"]), message, capacity)
    }
    guard threads >= 1, threads <= EnvMemory.maxThreads else {
        return report(.setting("threads must be from 1 to \(EnvMemory.maxThreads), not \(threads)", keywords: ["threads"]), message, capacity)
    }
    do {
        let configuration = try EnvConfiguration(EnvOptions.parse(String(cString: json)))
        try EnvMemory.checkCreate(configuration, slots: Int(slots), threads: Int(threads))
        let environment = Environment(configuration: configuration, slotCount: Int(slots), threads: Int(threads))
        out.pointee = Unmanaged.passRetained(EnvironmentHandle(environment)).toOpaque()
        return 0
    } catch {
        return report(error, message, capacity)
    }
}

/// Frees the sessions once any call in progress has returned; every later call answers
/// "closed". Closing twice is harmless.
@_cdecl("abrlab_env_close")
public func abrlabEnvClose(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    Unmanaged<EnvironmentHandle>.fromOpaque(pointer).takeUnretainedValue().close()
}

/// Frees the pointer; no call may follow.
@_cdecl("abrlab_env_destroy")
public func abrlabEnvDestroy(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    Unmanaged<EnvironmentHandle>.fromOpaque(pointer).release()
}

@_cdecl("abrlab_env_seed")
public func abrlabEnvSeed(
    _ pointer: UnsafeMutableRawPointer, _ slot: Int32, _ seed: UInt64, _ message: UnsafeMutablePointer<CChar>?, _ capacity: Int
) -> Int32 {
    calling(pointer, message, capacity) { env throws(EnvError) in try env.seed(slot: Int(slot), seed: seed) }
}
