import ABRLab

// The C interface the Python package loads with ctypes. Every function returns 0 or an
// ``EnvError`` code and writes the error's message into the caller's buffer; none traps on
// bad input. An environment pointer comes from `abrlab_env_create`, `abrlab_env_close` frees
// its sessions (later calls answer "closed"), and `abrlab_env_destroy` frees the pointer.

/// Writes `message` into the caller's buffer, cut to fit, NUL-terminated.
func report(_ error: EnvError, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int) -> Int32 {
    write(error.message, buffer, capacity)
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
public func abrlabABIVersion() -> Int32 { 2 }

/// Creates an environment of `slots` sessions from the JSON options.
@_cdecl("abrlab_env_create")
public func abrlabEnvCreate(
    _ json: UnsafePointer<CChar>?, _ slots: Int32, _ out: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ message: UnsafeMutablePointer<CChar>?, _ capacity: Int
) -> Int32 {
    guard let json, let out else { return report(.invalid("null argument"), message, capacity) }
    guard slots >= 1 else { return report(.invalid("num_envs must be at least 1, not \(slots)"), message, capacity) }
    do {
        let configuration = try EnvConfiguration(EnvOptions.parse(String(cString: json)))
        out.pointee = Unmanaged.passRetained(EnvironmentHandle(Environment(configuration: configuration, slotCount: Int(slots)))).toOpaque()
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

/// Sizes: [levels, traces, state rows, state columns, context length, record length, history
/// length, context scalars, record fields always set, experts].
@_cdecl("abrlab_env_sizes")
public func abrlabEnvSizes(_ pointer: UnsafeMutableRawPointer, _ out: UnsafeMutablePointer<Int64>) {
    guard let env = environment(pointer) else { return }
    let sizes = [
        env.configuration.levelCount, env.configuration.traces.count, PensieveState.rows, EnvSlot.stateColumns,
        env.contextLength, EnvFields.record.count, EnvFields.historyLength, EnvFields.contextScalars.count,
        EnvFields.recordFieldsAlwaysSet(live: env.configuration.emulator.profile.liveSettings != nil),
        env.configuration.experts.count,
    ]
    for (index, size) in sizes.enumerated() { out[index] = Int64(size) }
}

/// Names: 0 the context's scalar fields, 1 the record's fields (comma-separated), 2 the trace
/// names, 4 the experts' ids (newline-separated, as names may hold commas), 3 the QoE model's name. Returns the
/// bytes the text needs with its NUL, so a caller whose buffer was short can retry.
@_cdecl("abrlab_env_names")
public func abrlabEnvNames(_ pointer: UnsafeMutableRawPointer, _ which: Int32, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int) -> Int {
    guard let env = environment(pointer) else {
        write("", buffer, capacity)
        return 1
    }
    let text = switch which {
    case 0: EnvFields.contextScalars.joined(separator: ",")
    case 1: EnvFields.record.joined(separator: ",")
    case 2: env.configuration.traces.map(\.name).joined(separator: "\n")
    case 4: env.configuration.experts.map(\.id).joined(separator: "\n")
    default: env.configuration.scoring.name
    }
    write(text, buffer, capacity)
    return text.utf8.count + 1
}

/// The ladder in kbps, lowest first; the segment duration in seconds after it.
@_cdecl("abrlab_env_ladder")
public func abrlabEnvLadder(_ pointer: UnsafeMutableRawPointer, _ out: UnsafeMutablePointer<Double>) {
    guard let video = environment(pointer)?.configuration.video else { return }
    for (index, level) in video.ladder.enumerated() { out[index] = level.bitrateKbps }
    out[video.levelCount] = video.segmentDurationSeconds
}

@_cdecl("abrlab_env_seed")
public func abrlabEnvSeed(
    _ pointer: UnsafeMutableRawPointer, _ slot: Int32, _ seed: UInt64, _ message: UnsafeMutablePointer<CChar>?, _ capacity: Int
) -> Int32 {
    calling(pointer, message, capacity) { env throws(EnvError) in try env.seed(slot: Int(slot), seed: seed) }
}
