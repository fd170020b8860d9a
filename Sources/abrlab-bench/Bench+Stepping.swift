import ABRLab
import ABRLabCompare
import ABRLabFormats
import Foundation

extension Bench {
    /// A ``StreamingSession`` stepped by a loop written here against ``SessionEmulator/run`` with
    /// the same strategies, one thread: the floor's sessions (the engine's cost alone) and
    /// Sabre's 3G traces under the `sabre` profile, where the native BBA lets every check go on,
    /// so the loop answers one every ≈ 50 ms of download, both stepped as a training loop steps
    /// (a policy answers decisions and checks; these strategies ignore the other hooks), the
    /// floor also with a copy of the context read for each decision; and the five Lua
    /// strategies of the `default` sweep over the same traces, every hook heard. Both paths must
    /// give the same rows.
    func stepping() throws {
        let video = try SyntheticVideoGenerator().generate(name: "bench")
        var generator = TracePreset.cellular4g.generator
        generator.seed = 7
        let trace = try generator.generate(name: "4g")
        for loop in [SteppingLoop.policy, .policyCopyingContext] {
            try compareStepping(
                "pensieve fixed-level floor, 20000 sessions of 48 segments",
                emulator: SessionEmulator(profile: .pensieve, recordsTransitions: false),
                traces: Array(repeating: trace, count: 20_000), video: video, loop: loop
            ) { [FixedLevelStrategy(level: 2)] }
        }
        guard let folder = dataset("sabre/mmsys18/3Glogs"), let movie = dataset("sabre/movie.json") else { return }
        let traces = try TraceSetResolver().load([folder.path]).traces
        let sabreVideo = try VideoLoader.load(movie.path)
        try compareStepping(
            "sabre profile, bba-native over Sabre's 86 3G traces with movie.json, every abandonment check answered",
            emulator: SessionEmulator(profile: .sabre, recordsTransitions: false), traces: traces, video: sabreVideo, loop: .policy
        ) { [BufferBasedStrategy()] }
        let scripts = ["bba", "rb", "bola", "robust_mpc", "conservative"].map { "\(strategies)/\($0).lua" }
        guard scripts.allSatisfy({ FileManager.default.fileExists(atPath: $0) }) else {
            print("  skipped the Lua sweep: \(strategies) lacks one of its five scripts")
            return
        }
        let descriptors = try StrategyResolver(params: ParamAssignments()).resolveWithWarnings(scripts).descriptors
        try compareStepping(
            "default profile, the five Lua strategies of the sweep over the same traces",
            emulator: SessionEmulator(profile: .default), traces: traces, video: sabreVideo, loop: .everyHook
        ) { try descriptors.map { try $0.makeStrategy() } }
    }

    /// How the stepping loop drives a strategy.
    private enum SteppingLoop {
        /// A training loop: each decision made on the context the session lends, each check answered.
        case policy
        /// The same, each decision made on a copy of the context (`session.context`).
        case policyCopyingContext
        /// Every hook the batch path calls, waits and finished requests heard with a copy of the context.
        case everyHook

        var title: String {
            switch self {
            case .policy: "decisions on the lent context and checks"
            case .policyCopyingContext: "decisions on a copy of the context and checks"
            case .everyHook: "every hook"
            }
        }
    }

    /// Times `traces` × `strategies()` (fresh instances for each trace) stepped by `loop` and
    /// batched, in interleaved rounds.
    private func compareStepping(
        _ title: String, emulator: SessionEmulator, traces: [NetworkTrace], video: Video, loop: SteppingLoop,
        strategies: () throws -> [any SessionStrategy]
    ) throws {
        var segments = (batch: 0, stepped: 0)
        var rows = (batch: [SegmentRecord](), stepped: [SegmentRecord]())
        func time(_ body: () throws -> Void) rethrows -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        let rounds = try BenchRounds(rounds: baseline.rounds, ours: {
            try time {
                segments.stepped = 0
                for trace in traces {
                    for var policy in try strategies() {
                        var session = try StreamingSession(emulator: emulator, strategyID: "bench", trace: trace, video: video)
                        let result = try Self.step(&session, with: &policy, loop: loop)
                        segments.stepped += result.segments.count
                        rows.stepped = result.segments
                    }
                }
            }
        }, theirs: {
            try time {
                segments.batch = 0
                for trace in traces {
                    for policy in try strategies() {
                        // As a run plays its sessions: the strategy held as an existential.
                        let result = try emulator.run(strategy: policy, strategyID: "bench", trace: trace, video: video)
                        segments.batch += result.segments.count
                        rows.batch = result.segments
                    }
                }
            }
        })
        guard segments.batch == segments.stepped, rows.batch == rows.stepped else {
            throw InputError(file: "bench", "stepping from outside played differently from the batch path (\(title))")
        }
        let ratio = rounds.medianRatio
        print(String(format: "  stepping from outside, %@, %@: %.0f ns per segment stepped, %.0f ns batch (median of %d rounds); stepped/batch %.3f (%@ the 10 %% allowed)",
                     title, loop.title, rounds.oursMedian / Double(segments.stepped) * 1e9, rounds.theirsMedian / Double(segments.batch) * 1e9,
                     baseline.rounds, ratio, ratio <= 1.1 ? "within" : "beyond"))
    }

    /// Plays `session` to its end as `loop` says.
    private static func step<Strategy: SessionStrategy>(_ session: inout StreamingSession, with policy: inout Strategy, loop: SteppingLoop) throws -> SessionResult {
        try policy.setUp(session.info)
        let hooks = loop == .everyHook
        while true {
            switch try session.next() {
            case .decide where loop == .policyCopyingContext: try session.decide(policy.decide(session.context))
            case .decide: try session.decide { try policy.decide($0) }
            case .checkAbandonment(let progress): try session.answer(policy.answerAbandonment(progress))
            case .waited(let seconds) where hooks: try policy.didWait(seconds: seconds, context: session.context)
            case .downloaded(let record) where hooks: try policy.didDownload(record, context: session.context)
            case .waited, .downloaded, .network: continue
            case .finished(let result): return result
            }
        }
    }
}
