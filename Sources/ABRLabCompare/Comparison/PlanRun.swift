import ABRLab
import ABRLabFormats
import ABRLabResults

/// Runs sessions the way `compare` writes them: in plan order on `jobs` workers, each
/// session's CSV made on a worker, appended to the results as it arrives, the checkpoint unit
/// being one trace (all its strategy rows), and added to the report. Between sessions the workers
/// compress the blocks of compressed files the results have queued, so compression runs on
/// every worker instead of behind the writer. `beforeTraceEnds` runs before each
/// trace ends, so what it notes is on disk before a checkpoint can count the trace.
public enum PlanRun {
    public static func run(
        _ plan: ExperimentPlan, sessions: Range<Int>, jobs: Int, results: ResumableResults, bufferTimeline: Bool,
        report: inout ExperimentReport, progress: (Int) -> Void = { _ in }, beforeTraceEnds: () throws -> Void = {},
        firstGroup: Int = 0
    ) throws {
        if plan.grouping != nil {
            return try runGroups(
                plan, sessions: sessions, jobs: jobs, results: results, bufferTimeline: bufferTimeline, report: &report,
                progress: progress, beforeTraceEnds: beforeTraceEnds, firstGroup: firstGroup
            )
        }
        let video = plan.video
        let profileName = plan.emulator.profile.name
        let qoeName = plan.qoeName
        let compression = results.compressionQueue
        let writesSegments = results.layout.segments != .none
        var writer = TraceWriter(results: results, rows: plan.strategies.count)
        try ExperimentRunner(jobs: jobs).run(plan, sessions: sessions, prepare: { outcome in
            let session = SessionCSV(
                outcome: outcome, profile: profileName, qoeModel: qoeName, video: video, segments: writesSegments, bufferTimeline: bufferTimeline
            )
            compression.compressWaiting()
            return session
        }, consume: { session in
            report.add(strategyID: session.strategyID, traceName: session.traceName, metrics: session.metrics, error: session.error)
            try writer.append(session, beforeTraceEnds: beforeTraceEnds, progress: progress)
        })
    }
}

extension PlanRun {
    /// The groups whose players are `sessions` (whole groups), a group on one worker; each
    /// player's rows carry its group and seat, the group's last player its `groups.csv` row.
    /// Groups are numbered in the whole run's order: this shard's first is `firstGroup`.
    /// The report keys a player's metrics by its trace and its turn among the players of its
    /// strategy in the group (`trace#2`), so strategies pair up seat by seat.
    static func runGroups(
        _ plan: ExperimentPlan, sessions: Range<Int>, jobs: Int, results: ResumableResults, bufferTimeline: Bool,
        report: inout ExperimentReport, progress: (Int) -> Void, beforeTraceEnds: () throws -> Void, firstGroup: Int
    ) throws {
        guard let grouping = plan.grouping else { preconditionFailure("the plan has no groups") }
        let video = plan.video
        let profileName = plan.emulator.profile.name
        let qoeName = plan.qoeName
        let compression = results.compressionQueue
        let writesSegments = results.layout.segments != .none
        let groups = sessions.lowerBound / grouping.players..<sessions.upperBound / grouping.players
        var writer = TraceWriter(results: results, rows: plan.sessionsPerTrace)
        try ExperimentRunner(jobs: jobs).run(plan, groups: groups, prepare: { group in
            var players = group.players.enumerated().map { seat, outcome in
                SessionCSV(
                    outcome: outcome, profile: profileName, qoeModel: qoeName, video: video, segments: writesSegments,
                    bufferTimeline: bufferTimeline, seat: GroupSeat(group: firstGroup + group.index + 1, player: seat + 1)
                )
            }
            players[players.count - 1].groupLines = GroupCSV.line(group, number: firstGroup + group.index + 1, staggerSeconds: grouping.staggerSeconds)
            compression.compressWaiting()
            return (players, group.label, group.metrics)
        }, consume: { (players: [SessionCSV], label: String, metrics: GroupMetrics) in
            report.addGroup(label: label, metrics: metrics)
            var turns: [String: Int] = [:]
            for session in players {
                turns[session.strategyID, default: 0] += 1
                report.add(
                    strategyID: session.strategyID, traceName: ExperimentReport.playerKey(trace: session.traceName, turn: turns[session.strategyID]!),
                    metrics: session.metrics, error: session.error
                )
                try writer.append(session, beforeTraceEnds: beforeTraceEnds, progress: progress)
            }
        })
    }

    /// Appends sessions in plan order and ends a trace after each `rows` of them, `beforeTraceEnds`
    /// first, so a checkpoint counts only whole traces.
    private struct TraceWriter {
        let results: ResumableResults
        let rows: Int
        var done = 0

        mutating func append(_ session: SessionCSV, beforeTraceEnds: () throws -> Void, progress: (Int) -> Void) throws {
            try results.append(session)
            done += 1
            if done % rows == 0 {
                try beforeTraceEnds()
                try results.endTrace()
            }
            progress(done)
        }
    }
}
