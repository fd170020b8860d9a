#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ABRLab
import Foundation

/// What an environment's sessions take, estimated before the library allocates them. Swift stops
/// the process when an allocation fails, so an environment too large for the memory the process
/// may still take (`ulimit -v`, a container's limit, the machine's memory) is refused up front
/// with ``EnvError/outOfMemory`` (Python's `MemoryError`) instead of killing the interpreter.
/// The estimates are rounded up; a check maps the whole amount and unmaps it.
enum EnvMemory {
    /// The most sessions one environment holds (Python's `num_envs`), about 1.3 GB of them on
    /// Pensieve's video: a step's fixed cost (about 13 µs in Python) is spread thin long before.
    static let maxSlots = 65_536
    /// The most worker threads (`threads`): each reserves a stack, and more threads than cores
    /// only wait for each other.
    static let maxThreads = 1_024
    /// A worker's stack, as `Parallel` starts it (8 MiB).
    static let threadStackBytes = 8 << 20
    /// A session's engine state besides its records, rounded up: 4–5 kB measured (resident
    /// memory after whole episodes of 48 and 192 segments, less their records; 29 November).
    static let sessionBaseBytes = 8 << 10
    /// An expert's strategy in a session, rounded up: a Lua script's about 8 kB, a native one's
    /// 0.2–3.3 kB (measured as above).
    static let expertBytes = 12 << 10

    /// One slot before its first reset: the slot, its shuffle and its Pensieve state.
    static func slotBytes(traceCount: Int) -> Int {
        MemoryLayout<EnvSlot>.stride + traceCount * MemoryLayout<Int>.stride
            + PensieveState.rows * EnvSlot.stateColumns * MemoryLayout<Double>.stride + 256
    }

    /// One session from its reset to its episode's end: the engine, the records it reserves for
    /// every segment (and every chunk, on `live`) of the longest session the traces make, and its experts.
    static func sessionBytes(_ configuration: EnvConfiguration) -> Int {
        let emulator = configuration.emulator
        let video = configuration.video
        let segments = configuration.traces.lazy
            .map { emulator.segmentCount(for: video, traceSeconds: $0.durationSeconds) }.max() ?? 0
        var perSegment = MemoryLayout<SegmentRecord>.stride + MemoryLayout<DownloadRecord>.stride
        if let live = emulator.profile.liveSettings {
            perSegment += live.chunksPerSegment(segmentSeconds: video.segmentDurationSeconds) * MemoryLayout<LiveChunkSample>.stride
        }
        return sum(sessionBaseBytes + configuration.experts.count * expertBytes, product(segments, perSegment))
    }

    /// Refuses, before anything is allocated, an environment of `slots` sessions on `threads`
    /// threads that the process cannot hold.
    static func checkCreate(_ configuration: EnvConfiguration, slots: Int, threads: Int) throws(EnvError) {
        let perSlot = slotBytes(traceCount: configuration.traces.count) + sessionBytes(configuration)
        let stacks = threads > 1 ? min(threads, slots) * threadStackBytes : 0
        try check(sessions: slots, bytes: sum(product(slots, perSlot), stacks))
    }

    /// Refuses a reset that starts `sessions` sessions not started before (the others replace
    /// their session one at a time) when the process cannot hold them.
    static func checkReset(_ configuration: EnvConfiguration, sessions: Int) throws(EnvError) {
        guard sessions > 0 else { return }
        try check(sessions: sessions, bytes: product(sessions, sessionBytes(configuration)))
    }

    private static func check(sessions: Int, bytes: Int) throws(EnvError) {
        guard !available(bytes) else { return }
        let amount = bytes >= 1 << 30 ? String(format: "%.1f GB", Double(bytes) / 1e9) : "\(max(1, bytes / 1_000_000)) MB"
        throw .outOfMemory(
            "\(sessions) session\(sessions == 1 ? "" : "s") need about \(amount) of memory, which this process cannot "
                + "allocate now (its memory limit, ulimit -v, or the machine's memory is too small): use a smaller num_envs, or raise the limit"
        )
    }

    /// Whether `bytes` more can be mapped now: one private writable mapping of that size, unmapped
    /// at once and never touched. A limit on the address space refuses it, and so does the
    /// kernel's overcommit check where it is plainly more than the machine has. (An `mmap`, not a
    /// `malloc`: the optimizer drops a `malloc` whose block is only freed, and the check with it.)
    static func available(_ bytes: Int) -> Bool {
        guard bytes > 0 else { return true }
        guard bytes < Int.max / 2 else { return false }
        let block = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let block, block != MAP_FAILED else { return false }
        munmap(block, bytes)
        return true
    }

    private static func product(_ count: Int, _ bytes: Int) -> Int {
        let (value, overflow) = count.multipliedReportingOverflow(by: bytes)
        return overflow ? Int.max : value
    }

    private static func sum(_ a: Int, _ b: Int) -> Int {
        let (value, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : value
    }
}
