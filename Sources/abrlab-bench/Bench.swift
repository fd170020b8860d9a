import ABRLab
import ABRLabCompare
import ABRLabDatasets
import ABRLabFormats
import ArgumentParser
import Foundation

@main
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "abrlab-bench",
        abstract: "Measure abrlab's speed and memory and print the figures.",
        discussion: """
            Sections: engine (the floor and five Lua strategies over Sabre's 3G traces beside an older binary, \
            --baseline-binary, in interleaved rounds; a session stepped from outside against the batch path), \
            floor (emulation floor, segments/s with a fixed-level strategy), decision (ns per \
            decision, native and Lua), mpc (RobustMPC over Pensieve's 142 test traces, native and Lua), \
            compare (five strategies over Sabre's 86 3G traces), jobs (--jobs 1 against --jobs 2), \
            memory (peak RSS of a compare over Sabre's 2000 FCC traces against 200), sabre (Sabre's five \
            algorithms over its 3G traces under --profile sabre, as scripts and as their native twins, and bola.lua alone with and without its \
            abandonment checks; with --sabre-py, the whole process with movie.json beside Sabre's own sabre.py, \
            scripts and twins), pensieve (forward passes of Pensieve's \
            actor per second, and its 142 test traces with pensieve-native and pensieve.lua), shards (sharding \
            overhead at N = 8 in five interleaved rounds, side by side with the unsharded run and in turn, \
            and the fixed cost of one more shard; merge throughput, and merge's peak RSS for 1000 against 4000 sessions), live (live sessions \
            per second over Traces/twitch-ll's five patterns, native and the three Strategies/live scripts, against their real duration), output \
            (the same compare with --segments-format none, csv, csv.gz and csv.zst in interleaved rounds: wall and CPU time, their \
            ratios to csv, peak RSS and bytes per segment row; then the compression alone at each level and block size either format could \
            use). Sections that need \
            ../shared/datasets say so and are skipped when it is missing. Build in release mode first: \
            swift build -c release (which builds abrlab beside it: the sections that run whole compares run that abrlab).

            Example:
              .build/release/abrlab-bench
              .build/release/abrlab-bench --only floor,decision
            """
    )

    @Option(help: "Comma-separated sections to run (default: all).")
    var only: String?

    @Option(help: "Folder with the public datasets.")
    var datasets: String = "../shared/datasets"

    @Option(help: "Folder with the Lua strategies.")
    var strategies: String = Defaults.strategiesFolder

    @OptionGroup var baseline: BenchBaselineOptions

    func run() throws {
        try Self.guarding {
            let sections = only.map { Set($0.split(separator: ",").map(String.init)) }
            let known: [(String, () throws -> Void)] = [
                ("engine", engine),
                ("floor", floor), ("decision", decision), ("mpc", mpc), ("compare", compare),
                ("jobs", jobs), ("memory", memory), ("sabre", sabre), ("pensieve", pensieve), ("shards", shards),
                ("live", live), ("output", output), ("shared", shared),
            ]
            if let sections, let unknown = sections.first(where: { name in !known.contains { $0.0 == name } }) {
                throw InputError(file: "--only", "unknown section '\(unknown)'; sections: \(known.map(\.0).joined(separator: ", "))")
            }
            #if DEBUG
            print("note: this is a debug build; figures are only meaningful from `swift build -c release`")
            #endif
            for (name, section) in known where sections?.contains(name) ?? true { try section() }
        }
    }

    var datasetsURL: URL { URL(fileURLWithPath: datasets) }

    func dataset(_ relative: String) -> URL? {
        let url = datasetsURL.appendingPathComponent(relative)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        print("  skipped: \(url.path) not found")
        return nil
    }

    /// Pensieve's test traces and video, or nil when the datasets are missing.
    func pensieveInputs() throws -> (traces: [NetworkTrace], video: Video)? {
        guard let traces = dataset("pensieve/cooked_test_traces"), let sizes = dataset("pensieve/video_sizes") else { return nil }
        let video = try VideoLoader.load(
            sizes, ladderKbps: VideoPreset.pensieveLadderKbps, segmentDurationSeconds: VideoPreset.pensieveSegmentDurationSeconds
        )
        return (try TraceLoader.loadDirectory(traces).map(\.trace), video)
    }

    func floor() throws {
        print("emulation floor (fixed level, 48 segments per session, one thread)")
        let video = try SyntheticVideoGenerator().generate(name: "bench")
        var generator = TracePreset.cellular4g.generator
        generator.seed = 7
        let trace = try generator.generate(name: "4g")
        let emulator = SessionEmulator(profile: .pensieve, recordsTransitions: false)
        let sessions = 20_000
        let seconds = try BenchmarkClock.bestSeconds {
            for _ in 0..<sessions {
                var strategy = FixedLevelStrategy(level: 2)
                _ = try emulator.run(&strategy, strategyID: "fixed", trace: trace, video: video)
            }
        }
        let segments = Double(sessions * 48)
        print(String(format: "  %.2f M segments/s (%.0f ns per segment)", segments / seconds / 1e6, seconds / segments * 1e9))
    }
}

/// Always the same level: the cheapest possible strategy, for the emulation floor.
struct FixedLevelStrategy: SessionStrategy {
    let level: Int
    func chooseLevel(_ context: DecisionContext) -> Int { level }
}
