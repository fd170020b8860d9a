import ABRLab

/// `compare --dashjs-records`: the dashjs strategies of the run keep their E.2 decision records
/// (../shared/specs/dashjs.md section E, with abrlab's answer under `"abrlab"`) in one sink, written
/// once the sessions are done to `dashjs-records.jsonl`, in plan order (traces major), one session
/// (`ruleset@trace`) contiguous, as replay.mjs requires.
struct DashJSRecords {
    let descriptors: [StrategyDescriptor]
    private let sink: DashJSRecordSink

    static let fileName = "dashjs-records.jsonl"

    /// nil when the run writes no records; refuses the runs whose sessions the file could not hold whole.
    init?(_ request: Comparison.Request, strategies: [StrategyDescriptor]) throws(InputError) {
        guard request.dashjsRecords else { return nil }
        if request.resume {
            throw InputError(settings: [.dashjsRecords, .resume], "records are kept for one whole run; run it again without resuming")
        }
        if request.shard != nil { throw InputError(settings: [.dashjsRecords, .shard], "records are written by an unsharded run") }
        if request.players != nil || !request.mix.isEmpty {
            throw InputError(settings: [.dashjsRecords, .players], "records follow players that play alone")
        }
        let sink = DashJSRecordSink()
        var replaced: [StrategyDescriptor] = []
        for descriptor in strategies {
            guard let ruleSet = DashJSStrategy.RuleSet(rawValue: descriptor.id) else {
                replaced.append(descriptor)
                continue
            }
            replaced.append(.dashjs(ruleSet, sink: sink))
        }
        guard replaced.contains(where: { DashJSStrategy.RuleSet(rawValue: $0.id) != nil }) else {
            throw InputError(setting: .dashjsRecords, "needs a dashjs strategy among the strategies (\(DashJSStrategy.RuleSet.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        self.sink = sink
        descriptors = replaced
    }

    /// Every session's records in plan order, as the run's `dashjs-records.jsonl`.
    func file(plan: ExperimentPlan) -> (name: String, bytes: [UInt8]) {
        var bytes: [UInt8] = []
        for trace in plan.traces {
            for descriptor in descriptors where DashJSStrategy.RuleSet(rawValue: descriptor.id) != nil {
                for line in sink.lines(session: "\(descriptor.id)@\(trace.name)") {
                    bytes += line.utf8
                    bytes.append(UInt8(ascii: "\n"))
                }
            }
        }
        return (Self.fileName, bytes)
    }
}
