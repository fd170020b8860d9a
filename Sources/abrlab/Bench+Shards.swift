import ABRLab
import Foundation

extension Abrlab.Bench {
    /// Sharding overhead at N = 8, merge throughput, and merge's peak RSS against the number of
    /// sessions, all with the real binary in child processes.
    func shards() throws {
        print("sharded compare: 8 shards one after another against one unsharded run, best of 2 each (the eight strategies of issue 12 over Sabre's 1000 hd_fs traces)")
        guard let hd = dataset("sabre/mmsys18/hd_fs"), let sd = dataset("sabre/mmsys18/sd_fs"), let movie = dataset("sabre/movie.json") else { return }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-bench-shards-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let eight = ["bba", "rb", "bola", "robust_mpc", "throughput", "dynamic", "festive"].map { "\(strategies)/\($0).lua" } + ["conservative"]
        let run = ["compare", "--strategies"] + eight + ["--traces", hd.path, "--video", movie.path, "--quiet"]
        // Each run twice, the faster counting, so other load on the machine disturbs both sides
        // alike; CPU time (user + system) is the least of the two as well, and moves less with
        // other load than wall time does.
        func best(_ arguments: [String]) throws -> (seconds: Double, cpuSeconds: Double) {
            var best = (seconds: Double.infinity, cpuSeconds: Double.infinity)
            for _ in 0..<2 {
                let child = try BenchmarkClock.child(arguments)
                guard child.status == 0 else { throw InputError(file: "bench", "compare \(arguments.suffix(4).joined(separator: " ")) exited with \(child.status)") }
                best = (min(best.seconds, child.seconds), min(best.cpuSeconds, child.cpuSeconds))
            }
            return best
        }
        let whole = try best(run + ["--out", scratch.appendingPathComponent("whole").path])
        var shardSeconds = 0.0
        var shardCPUSeconds = 0.0
        var folders: [String] = []
        for index in 0..<8 {
            let folder = scratch.appendingPathComponent("shard-\(index)").path
            let shard = try best(run + ["--shard", "\(index)/8", "--out", folder])
            shardSeconds += shard.seconds
            shardCPUSeconds += shard.cpuSeconds
            folders.append(folder)
        }
        let wholeSeconds = whole.seconds
        let mergedFolder = scratch.appendingPathComponent("merged")
        let merge = try BenchmarkClock.child(["merge"] + folders + ["--out", mergedFolder.path, "--quiet"])
        let rows = try Self.rowCount(mergedFolder)
        try? FileManager.default.removeItem(at: scratch.appendingPathComponent("whole"))
        print(String(format: "  unsharded %.2f s; 8 shards %.2f s in total: overhead %+.1f %% (%+.1f %% with the merge's %.2f s)",
                     wholeSeconds, shardSeconds, (shardSeconds / wholeSeconds - 1) * 100,
                     ((shardSeconds + merge.seconds) / wholeSeconds - 1) * 100, merge.seconds))
        print(String(format: "  CPU time: unsharded %.2f s; 8 shards %.2f s in total: overhead %+.1f %%",
                     whole.cpuSeconds, shardCPUSeconds, (shardCPUSeconds / whole.cpuSeconds - 1) * 100))
        print(String(format: "  merge: %d rows (sessions, segments, transitions) in %.2f s: %.1f M rows/s, peak RSS %.1f MB",
                     rows, merge.seconds, Double(rows) / merge.seconds / 1e6, Double(merge.peakBytes) / 1e6))

        print("peak RSS of merging 4 shards (conservative, bba-native over Sabre's FCC traces), in a child process")
        for (label, traces) in [("1000", [Array(0..<500)]), ("4000", [])] as [(String, [[Int]])] {
            let arguments: [String]
            if let subset = traces.first {
                let folder = scratch.appendingPathComponent("fcc\(label)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                for index in subset {
                    let name = String(format: "trace%04d.json", index)
                    try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent(name), withDestinationURL: hd.appendingPathComponent(name))
                }
                arguments = [folder.path]
            } else {
                arguments = [hd.path, sd.path]
            }
            var parts: [String] = []
            for index in 0..<4 {
                let folder = scratch.appendingPathComponent("rss\(label)-\(index)").path
                _ = try BenchmarkClock.child(
                    ["compare", "--strategies", "conservative", "bba-native", "--traces"] + arguments
                        + ["--video", movie.path, "--shard", "\(index)/4", "--out", folder, "--quiet"]
                )
                parts.append(folder)
            }
            let out = scratch.appendingPathComponent("rss\(label)-merged")
            let merged = try BenchmarkClock.child(["merge"] + parts + ["--out", out.path, "--quiet"])
            print("  \(label) sessions: " + String(format: "peak RSS %.1f MB, %.2f s, %d rows, exit %d",
                                                  Double(merged.peakBytes) / 1e6, merged.seconds, try Self.rowCount(out), merged.status))
        }
    }

    /// Rows of sessions.csv, segments.csv and transitions.csv in a result folder.
    static func rowCount(_ folder: URL) throws -> Int {
        var rows = 0
        for name in ["sessions.csv", "segments.csv", "transitions.csv"] {
            guard let handle = try? FileHandle(forReadingFrom: folder.appendingPathComponent(name)) else { continue }
            defer { try? handle.close() }
            while let block = try handle.read(upToCount: 1 << 20), !block.isEmpty {
                rows += block.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            }
            rows -= 1
        }
        return rows
    }
}
