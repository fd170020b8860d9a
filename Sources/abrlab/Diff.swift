import ABRLab
import ABRLabCompare
import ABRLabResults
import ArgumentParser
import Foundation

extension Abrlab {
    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "diff",
            abstract: "Compare two result folders of abrlab compare, session by session.",
            discussion: """
                Pairs the sessions of A/sessions.csv and B/sessions.csv by strategy and trace and prints, per \
                strategy, how many sessions changed and the session-QoE deltas (B − A); then each changed session; \
                then the settings and inputs the two run.json files disagree on (hashes of the video, traces and \
                scripts, profile parameters, strategy parameters, seed).

                A session changed when its QoE moved by more than --tolerance, it failed on one side only, or only \
                one side has it.

                Exit status: 0 when no session changed, 1 when some did, 2 when a folder cannot be read.

                Example:
                  abrlab diff results/before results/after --tolerance 1e-9
                """
        )

        @Argument(help: ArgumentHelp("The earlier result folder.", valueName: "A"))
        var a: String

        @Argument(help: ArgumentHelp("The later result folder.", valueName: "B"))
        var b: String

        @Option(help: "Session-QoE differences up to this size count as equal.")
        var tolerance: Double = 0

        @Option(help: "Changed sessions to list (0: all).")
        var limit: Int = 20

        func run() throws {
            let diff: ResultsDiff
            do {
                guard tolerance >= 0, tolerance.isFinite else { throw InputError(file: "--tolerance", "must be a number ≥ 0") }
                guard limit >= 0 else { throw InputError(file: "--limit", "must be at least 0") }
                diff = try ResultsDiff(
                    a: try CSVTable(contentsOf: sessionsURL(a)), b: try CSVTable(contentsOf: sessionsURL(b)),
                    fileA: sessionsURL(a).path, fileB: sessionsURL(b).path, tolerance: tolerance
                )
            } catch let error as InputError {
                throw CommandFailure.exit(error.commandLineText, code: 2)
            }
            Console.print(Self.render(diff, limit: limit), terminator: "")
            let inputs = inputDifferences()
            Console.print(inputs.isEmpty ? "\nrun.json: same settings and inputs" : "\nrun.json differs in: " + inputs.joined(separator: ", "))
            if diff.hasDifferences { throw ExitCode(1) }
        }

        private func sessionsURL(_ folder: String) -> URL {
            URL(fileURLWithPath: folder).appendingPathComponent("sessions.csv")
        }

        private func inputDifferences() -> [String] {
            func manifest(_ folder: String) -> Any {
                let url = URL(fileURLWithPath: folder).appendingPathComponent(OutputFolder.manifestName)
                return FileManager.default.contents(atPath: url.path).flatMap { try? JSONSerialization.jsonObject(with: $0) } ?? [:]
            }
            return ManifestDifferences.keys(manifest(a), manifest(b))
        }

        static func render(_ diff: ResultsDiff, limit: Int) -> String {
            var rows = [["strategy", "sessions A", "sessions B", "failed A", "failed B", "paired", "changed", "mean ΔQoE", "min ΔQoE", "max ΔQoE"]]
            for row in diff.strategies {
                rows.append([
                    row.strategyID, String(row.sessionsA), String(row.sessionsB), String(row.failedA), String(row.failedB),
                    String(row.paired), String(row.changed), delta(row.meanDelta), delta(row.minDelta), delta(row.maxDelta),
                ])
            }
            var text = RankedTable.layout(rows, leftColumns: 1)
            let changed = diff.changedSessions
            guard !changed.isEmpty else { return text + "\nno session changed\n" }
            text += "\n\(changed.count) changed session(s)" + (limit > 0 && changed.count > limit ? ", the first \(limit):" : ":") + "\n"
            var lines = [["strategy", "trace", "QoE A", "QoE B", "ΔQoE"]]
            for session in limit > 0 ? Array(changed.prefix(limit)) : changed {
                lines.append([
                    session.strategyID, session.traceName, side(session.qoeA, error: session.errorA, present: session.inA),
                    side(session.qoeB, error: session.errorB, present: session.inB), session.delta.map(delta) ?? "-",
                ])
            }
            return text + RankedTable.layout(lines)
        }

        static func delta(_ value: Double) -> String {
            value.isNaN ? "-" : String(format: "%+.6g", value)
        }

        static func side(_ qoe: Double?, error: String?, present: Bool) -> String {
            guard present else { return "absent" }
            if error != nil { return "failed" }
            return qoe.map { String(format: "%.6g", $0) } ?? "-"
        }
    }
}
