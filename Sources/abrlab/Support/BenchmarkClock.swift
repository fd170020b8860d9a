import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Wall-clock timing and child-process peak memory for `abrlab bench`.
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

    /// Runs this executable with `arguments` and returns its exit status, wall time and peak
    /// resident memory in bytes (from the kernel's accounting of the child).
    static func child(_ arguments: [String]) throws -> (status: Int32, seconds: Double, peakBytes: Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = DispatchTime.now().uptimeNanoseconds
        try process.run()
        var status: Int32 = 0
        var usage = rusage()
        let pid = process.processIdentifier
        while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitStatus, seconds, Int(usage.ru_maxrss) * 1024)
    }
}
