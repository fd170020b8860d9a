import ABRLab
import ArgumentParser
import Foundation

extension Abrlab {
    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge",
            abstract: "Merge the folders of a sharded compare into the folder the unsharded run writes.",
            discussion: """
                Checks that the folders are the shards 0..N-1 of one plan (same fingerprint in \
                run.json), each exactly once, and that every file matches the size and checksum \
                its run.json records; then writes sessions.csv, segments.csv (or .gz), \
                transitions.csv, summary.csv, ranked.json and run.json byte for byte as the same compare run \
                unsharded would (run.json differs only in how the run was executed: command and \
                jobs). Any problem is one error line and nothing is written. Exits non-zero when \
                any session failed.

                Example:
                  abrlab compare --shard 0/2 --out shards/0 && abrlab compare --shard 1/2 --out shards/1
                  abrlab merge shards/* --out results
                """
        )

        @Argument(help: ArgumentHelp("Result folders of compare --shard K/N, in any order.", valueName: "shard-folder"))
        var folders: [String]

        @Option(help: "Output folder.")
        var out: String = "results"

        @Flag(help: "Print only errors and warnings: no table or closing line.")
        var quiet = false

        @Option(help: ArgumentHelp("How the ranked table is printed: text, or json (the contents of ranked.json).", valueName: "text|json"))
        var table: String = "text"

        func run() throws {
            try CommandFailure.guarding {
                guard ["text", "json"].contains(table) else { throw InputError(file: "--table", "'\(table)' is not text or json") }
                let merger = try ShardMerger(folders: folders)
                // The shards' warnings once more, whatever --quiet says: their own stderr may be in
                // a dozen job logs.
                merger.warnings.forEach(CommandFailure.warn)
                let outURL = URL(fileURLWithPath: out)
                let folder = try OutputFolder(outURL)
                let created = !FileManager.default.fileExists(atPath: outURL.path)
                do {
                    try FileManager.default.createDirectory(at: outURL, withIntermediateDirectories: true)
                } catch {
                    throw InputError(file: out, "cannot create the output folder")
                }
                let merged: (report: ExperimentReport, shard: ShardManifest, manifest: String)
                do { merged = try merger.merge(into: outURL) } catch {
                    if created { try? FileManager.default.removeItem(at: outURL) }
                    throw error
                }
                let shard = merged.shard
                let ranking = merged.report.ranking(seed: shard.seed, rankBy: RankMetric(rawValue: shard.rankBy) ?? .mean, baselineID: shard.baseline)
                try ranking.writeFiles(to: outURL)
                // The plan's run.json, as the unsharded run writes it but for how it was run.
                let run = try AtomicFile(outURL.appendingPathComponent(OutputFolder.manifestName))
                try run.write(merged.manifest)
                try run.commit()
                try folder.removeStale(keeping: merger.fileNames)
                if table == "json" {
                    print(String(decoding: ranking.json(), as: UTF8.self))
                } else if !quiet {
                    print(RankedTable.render(ranking), terminator: "")
                    print("merged \(shard.count) shards (\(shard.totalSessions) sessions) into \(out)/")
                }
                let failed = merged.report.failureCount
                if failed > 0 { throw CommandFailure.exit("\(failed) session(s) failed; see the error column of sessions.csv") }
            }
        }
    }
}
