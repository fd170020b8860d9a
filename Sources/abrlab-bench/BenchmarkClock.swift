import ABRLab
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Wall-clock timing and child-process peak memory for `abrlab-bench`.
enum BenchmarkClock {
    /// Seconds `body` takes, best of `repeats` runs (the least disturbed by other load).
    static func bestSeconds(repeats: Int = 3, _ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<max(1, repeats) {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return best
    }

    /// CPU seconds the calling thread spends in `body`, least of `repeats` runs: a measure of work
    /// that other load on a shared machine disturbs less than wall time.
    static func cpuSeconds(repeats: Int = 3, _ body: () throws -> Void) rethrows -> Double {
        func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        var least = Double.infinity
        for _ in 0..<max(1, repeats) {
            let start = now()
            try body()
            least = min(least, now() - start)
        }
        return least
    }

    /// Runs this executable with `arguments` and returns its exit status, wall time, CPU time
    /// (user and system, all threads) and peak resident memory in bytes (from the kernel's
    /// accounting of the child). The child is
    /// started with posix_spawn, not `Process`, whose own reaper could collect it first and
    /// leave no accounting to read.
    static func child(_ arguments: [String], executable: String = abrlabPath) throws -> (status: Int32, seconds: Double, cpuSeconds: Double, peakBytes: Int) {
        let start = DispatchTime.now().uptimeNanoseconds
        let ended = try waitForChild(try spawn(arguments, executable: executable))
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return (ended.status, seconds, cpuSeconds(ended.usage), Int(ended.usage.ru_maxrss) * 1024)
    }

    /// Runs one child per argument list, at most `slots` at a time (as `parallel -j slots`
    /// does), and returns the wall time of the whole batch, the CPU time of all children and
    /// the worst exit status.
    static func children(_ argumentLists: [[String]], slots: Int, executable: String = abrlabPath) throws -> (status: Int32, seconds: Double, cpuSeconds: Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        var pending = argumentLists[...]
        var running = 0
        var worst: Int32 = 0
        var cpu = 0.0
        while running > 0 || !pending.isEmpty {
            while running < max(1, slots), let next = pending.popFirst() {
                _ = try spawn(next, executable: executable)
                running += 1
            }
            let ended = try waitForChild()
            running -= 1
            worst = max(worst, ended.status)
            cpu += cpuSeconds(ended.usage)
        }
        return (worst, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, cpu)
    }

    /// Starts `single` and, at the same moment, the children of `sequence` one after another, so
    /// both sides meet the same load from elsewhere; returns each side's CPU time (user and
    /// system) and the worst exit status. On a shared machine whose speed drifts over seconds,
    /// the ratio of two runs made side by side is steadier than that of runs made in turn.
    static func sideBySide(_ single: [String], _ sequence: [[String]]) throws -> (status: Int32, singleCPUSeconds: Double, sequenceCPUSeconds: Double) {
        var singlePid: pid_t? = try spawn(single, executable: abrlabPath)
        var pending = sequence[...]
        var sequencePid: pid_t? = try pending.popFirst().map { try spawn($0, executable: abrlabPath) }
        var worst: Int32 = 0
        var singleCPU = 0.0, sequenceCPU = 0.0
        while singlePid != nil || sequencePid != nil {
            let ended = try waitForChild()
            worst = max(worst, ended.status)
            if ended.pid == singlePid {
                singleCPU = cpuSeconds(ended.usage)
                singlePid = nil
            } else if ended.pid == sequencePid {
                sequenceCPU += cpuSeconds(ended.usage)
                sequencePid = try pending.popFirst().map { try spawn($0, executable: abrlabPath) }
            }
        }
        return (worst, singleCPU, sequenceCPU)
    }

    /// Waits for the child `pid` (any child when -1) to end: its pid, exit status and the
    /// kernel's accounting of it.
    private static func waitForChild(_ pid: pid_t = -1) throws -> (pid: pid_t, status: Int32, usage: rusage) {
        while true {
            var status: Int32 = 0
            var usage = rusage()
            let ended = wait4(pid, &status, 0, &usage)
            if ended >= 0 { return (ended, exitStatus(status), usage) }
            guard errno == EINTR else {
                throw InputError(file: "bench", "lost track of a child: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// This executable.
    static var selfPath: String { URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path }

    /// The `abrlab` built beside this executable, which the sections that time whole commands run.
    static var abrlabPath: String { URL(fileURLWithPath: selfPath).deletingLastPathComponent().appendingPathComponent("abrlab").path }

    /// Runs `executable` with `arguments` and returns its exit status and what it printed on
    /// stdout (stderr discarded).
    static func output(_ arguments: [String], executable: String = abrlabPath) throws -> (status: Int32, text: String) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw InputError(file: executable, "cannot open a pipe: \(String(cString: strerror(errno)))") }
        let pid: pid_t
        do { pid = try spawn(arguments, executable: executable, stdout: fds[1]) } catch {
            close(fds[0])
            close(fds[1])
            throw error
        }
        close(fds[1])
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fds[0], &buffer, buffer.count)
            if count > 0 {
                bytes += buffer[0..<count]
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        close(fds[0])
        let ended = try waitForChild(pid)
        return (ended.status, String(decoding: bytes, as: UTF8.self))
    }

    /// Starts `executable` with `arguments`, its stderr discarded and its stdout too unless
    /// `stdout` names a descriptor for it.
    private static func spawn(_ arguments: [String], executable: String, stdout: Int32? = nil) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdout {
            posix_spawn_file_actions_adddup2(&actions, stdout, 1)
            posix_spawn_file_actions_addclose(&actions, stdout)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        // posix_spawnp: a bare name (python3) is looked up on PATH, a path is used as it is.
        let spawned = posix_spawnp(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw InputError(file: executable, "cannot start: \(String(cString: strerror(spawned)))") }
        return pid
    }

    private static func exitStatus(_ status: Int32) -> Int32 {
        (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    private static func cpuSeconds(_ usage: rusage) -> Double {
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
