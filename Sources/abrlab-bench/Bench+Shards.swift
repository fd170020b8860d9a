import ABRLab
import Foundation

extension Bench {
    /// Sharding overhead at N = 8, merge throughput, and merge's peak RSS against the number of
    /// sessions, all with the real binary in child processes.
    func shards() throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let rounds = 5
        // Linking the Swift runtime statically (--static-swift-stdlib) changes every shard's start.
        let shared = dlopen("libswiftCore.so", RTLD_NOW | RTLD_NOLOAD) != nil
        let runtime = shared ? "shared Swift runtime" : "Swift runtime linked in (--static-swift-stdlib)"
        print("sharded compare: the seven shipped scripts of the default set and conservative over Sabre's 1000 hd_fs traces, unsharded against 8 shards, \(rounds) interleaved rounds; this binary: \(runtime)")
        guard let hd = dataset("sabre/mmsys18/hd_fs"), let sd = dataset("sabre/mmsys18/sd_fs"), let movie = dataset("sabre/movie.json") else { return }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-bench-shards-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let eight = ["bba", "rb", "bola", "robust_mpc", "throughput", "dynamic", "festive"].map { "\(strategies)/\($0).lua" } + ["conservative"]
        let run = ["compare", "--strategies"] + eight + ["--traces", hd.path, "--video", movie.path, "--quiet"]
        func folder(_ name: String) -> String { scratch.appendingPathComponent(name).path }
        func succeeded(_ status: Int32, _ what: String) throws {
            guard status == 0 else { throw InputError(file: "bench", "\(what) exited with \(status)") }
        }
        // Rounds interleave the ways of running the same work, so load from elsewhere falls on
        // all of them alike; the medians of the per-round ratios count. Side by side, the
        // unsharded run and the eight shards run at the same moment, one core each, which
        // cancels the drift of a shared machine's speed that runs made in turn pick up.
        var wholeCPU: [Double] = [], wholeWall: [Double] = []
        var pairedOverheads: [Double] = [], cpuOverheads: [Double] = [], sequentialOverheads: [Double] = [], slotOverheads: [Double] = []
        for round in 1...rounds {
            let paired = try BenchmarkClock.sideBySide(
                run + ["--jobs", "1", "--out", folder("paired-whole")],
                (0..<8).map { run + ["--jobs", "1", "--shard", "\($0)/8", "--out", folder("paired-\($0)")] }
            )
            try succeeded(paired.status, "the side-by-side runs")
            let whole = try BenchmarkClock.child(run + ["--jobs", "\(cores)", "--out", folder("whole")])
            try succeeded(whole.status, "the unsharded compare")
            // One after another, each shard on every core.
            var sequential = (seconds: 0.0, cpuSeconds: 0.0)
            for index in 0..<8 {
                let shard = try BenchmarkClock.child(run + ["--jobs", "\(cores)", "--shard", "\(index)/8", "--out", folder("shard-\(index)")])
                try succeeded(shard.status, "shard \(index)/8")
                sequential = (sequential.seconds + shard.seconds, sequential.cpuSeconds + shard.cpuSeconds)
            }
            // As docs/cluster.md's GNU parallel recipe runs them: one shard per core, --jobs 1 each.
            let slots = try BenchmarkClock.children(
                (0..<8).map { run + ["--jobs", "1", "--shard", "\($0)/8", "--out", folder("slot-\($0)")] }, slots: cores
            )
            try succeeded(slots.status, "a shard run \(cores) at a time")
            pairedOverheads.append(paired.sequenceCPUSeconds / paired.singleCPUSeconds - 1)
            wholeCPU.append(paired.singleCPUSeconds)
            wholeWall.append(whole.seconds)
            cpuOverheads.append(sequential.cpuSeconds / whole.cpuSeconds - 1)
            sequentialOverheads.append(sequential.seconds / whole.seconds - 1)
            slotOverheads.append(slots.seconds / whole.seconds - 1)
            print(String(format: "  round %d: side by side with --jobs 1, unsharded %.2f s CPU, 8 shards %.2f s CPU; unsharded %.2f s (%.2f s CPU); 8 shards one after another %.2f s (%.2f s CPU); %d at a time with --jobs 1 %.2f s (%.2f s CPU)",
                         round, paired.singleCPUSeconds, paired.sequenceCPUSeconds, whole.seconds, whole.cpuSeconds,
                         sequential.seconds, sequential.cpuSeconds, cores, slots.seconds, slots.cpuSeconds))
            for name in ["paired-whole"] + (0..<8).map({ "paired-\($0)" }) { try? FileManager.default.removeItem(at: scratch.appendingPathComponent(name)) }
        }
        func percent(_ overheads: [Double]) -> Double { Self.median(overheads) * 100 }
        print(String(format: "  overhead of 8 shards, median of %d rounds: CPU time %+.1f %% side by side, %+.1f %% in turn; wall time %+.1f %% %d at a time with --jobs 1, %+.1f %% one after another on every core",
                     rounds, percent(pairedOverheads), percent(cpuOverheads), percent(slotOverheads), cores, percent(sequentialOverheads)))
        try fixedShardCost(run: run, cores: cores, folder: folder, wholeCPUSeconds: Self.median(wholeCPU), wholeSeconds: Self.median(wholeWall))
        let folders = (0..<8).map { folder("shard-\($0)") }
        let mergedFolder = scratch.appendingPathComponent("merged")
        let merge = try BenchmarkClock.child(["merge"] + folders + ["--out", mergedFolder.path, "--quiet"])
        let rows = try Self.rowCount(mergedFolder)
        for name in ["whole"] + (0..<8).map({ "slot-\($0)" }) { try? FileManager.default.removeItem(at: scratch.appendingPathComponent(name)) }
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

    /// What one more shard costs however little it runs: a shard of the same plan split 1000
    /// ways (about eight sessions), less its share of the unsharded run. N shards pay it N - 1
    /// times more than the unsharded run does; the medians of nine such shards are steady where
    /// whole runs made in turn are not.
    private func fixedShardCost(run: [String], cores: Int, folder: (String) -> String, wholeCPUSeconds: Double, wholeSeconds: Double) throws {
        var cpu: [Double] = [], wall: [Double] = []
        for index in stride(from: 100, to: 1000, by: 100) {
            let alone = try BenchmarkClock.child(run + ["--jobs", "1", "--shard", "\(index)/1000", "--out", folder("tiny-cpu")])
            let spread = try BenchmarkClock.child(run + ["--jobs", "\(cores)", "--shard", "\(index)/1000", "--out", folder("tiny-wall")])
            guard alone.status == 0, spread.status == 0 else { throw InputError(file: "bench", "shard \(index)/1000 exited with \(max(alone.status, spread.status))") }
            cpu.append(alone.cpuSeconds - wholeCPUSeconds / 1000)
            wall.append(spread.seconds - wholeSeconds / 1000)
            for name in ["tiny-cpu", "tiny-wall"] { try? FileManager.default.removeItem(atPath: folder(name)) }
        }
        let fixedCPU = Self.median(cpu), fixedWall = Self.median(wall)
        print(String(format: "  fixed cost of a shard (process start, reading and hashing every input for the plan's fingerprint, run.json), median of %d: %.0f ms CPU with --jobs 1, %.0f ms wall with --jobs %d; 7 more of them at N = 8: %+.1f %% CPU, %+.1f %% wall one after another",
                     cpu.count, fixedCPU * 1000, fixedWall * 1000, cores, 7 * fixedCPU / wholeCPUSeconds * 100, 7 * fixedWall / wholeSeconds * 100))
    }

    /// The middle value (the upper one of an even count).
    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

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
