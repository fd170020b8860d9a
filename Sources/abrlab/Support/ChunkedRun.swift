import ABRLab

/// Runs sessions the way `compare` writes them: in plan order on `jobs` workers, each
/// session's CSV made on a worker, appended to the results one trace (all its strategy rows)
/// at a time, and added to the report. `beforeAppend` runs before each trace is appended.
enum ChunkedRun {
    static func run(
        _ plan: ExperimentPlan, sessions: Range<Int>, jobs: Int, results: ResumableResults, bufferTimeline: Bool,
        report: inout ExperimentReport, progress: (Int) -> Void = { _ in }, beforeAppend: () throws -> Void = {}
    ) throws {
        let video = plan.video
        let profileName = plan.emulator.profile.name
        let qoeName = plan.qoeName
        let rows = plan.strategies.count
        var chunk: [SessionCSV] = []
        var done = 0
        try ExperimentRunner(jobs: jobs).run(plan, sessions: sessions, prepare: { outcome in
            SessionCSV(outcome: outcome, profile: profileName, qoeModel: qoeName, video: video, bufferTimeline: bufferTimeline)
        }, consume: { session in
            report.add(strategyID: session.strategyID, traceName: session.traceName, metrics: session.metrics, error: session.error)
            chunk.append(session)
            if chunk.count == rows {
                try beforeAppend()
                try results.append(chunk: chunk)
                chunk.removeAll(keepingCapacity: true)
            }
            done += 1
            progress(done)
        })
    }
}
