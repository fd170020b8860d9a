import ABRLab

/// Runs sessions the way `compare` writes them: in plan order on `jobs` workers, each
/// session's CSV made on a worker, appended to the results as it arrives, the checkpoint unit
/// being one trace (all its strategy rows), and added to the report. Between sessions the workers
/// compress the blocks of compressed files the results have queued, so compression runs on
/// every worker instead of behind the writer. `beforeTraceEnds` runs before each
/// trace ends, so what it notes is on disk before a checkpoint can count the trace.
public enum PlanRun {
    public static func run(
        _ plan: ExperimentPlan, sessions: Range<Int>, jobs: Int, results: ResumableResults, bufferTimeline: Bool,
        report: inout ExperimentReport, progress: (Int) -> Void = { _ in }, beforeTraceEnds: () throws -> Void = {}
    ) throws {
        let video = plan.video
        let profileName = plan.emulator.profile.name
        let qoeName = plan.qoeName
        let rows = plan.strategies.count
        let compression = results.compressionQueue
        var done = 0
        try ExperimentRunner(jobs: jobs).run(plan, sessions: sessions, prepare: { outcome in
            let session = SessionCSV(outcome: outcome, profile: profileName, qoeModel: qoeName, video: video, bufferTimeline: bufferTimeline)
            compression.compressWaiting()
            return session
        }, consume: { session in
            report.add(strategyID: session.strategyID, traceName: session.traceName, metrics: session.metrics, error: session.error)
            try results.append(session)
            done += 1
            if done % rows == 0 {
                try beforeTraceEnds()
                try results.endTrace()
            }
            progress(done)
        })
    }
}
