import ABRLab
import ABRLabCompare
import ABRLabResults
import ABRLabSettings
import ArgumentParser
import Foundation

extension Abrlab {
    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge",
            abstract: "Merge the folders of a sharded compare into the folder the unsharded run writes.",
            discussion: """
                Checks that the folders are the shards 0..N-1 of one plan (same fingerprint in \
                run.json), each exactly once, that every file matches the size and checksum \
                its run.json records, and that no script, module or model the shards' code read \
                has different bytes in two shards; then writes sessions.csv, segments.csv (or .gz), \
                transitions.csv, summary.csv, ranked.json and run.json byte for byte as the same compare run \
                unsharded would (run.json differs only in how the run was executed: command and \
                jobs). Any problem is one error line and nothing is written. The --out folder \
                belongs to the merge as to a compare (see abrlab compare --help), and a shard \
                folder a compare is still writing is refused. Exits non-zero when any session failed.

                Example:
                  abrlab compare --shard 0/2 --out shards/0 && abrlab compare --shard 1/2 --out shards/1
                  abrlab merge shards/* --out results
                """
        )

        @Argument(help: ArgumentHelp("Result folders of compare --shard K/N, in any order.", valueName: "shard-folder"))
        var folders: [String]

        @Option(help: "Output folder.")
        var out: String = "results"

        @Flag(name: .setting(.quiet), help: .setting(.quiet, in: "merge"))
        var quiet = false

        @Option(name: .setting(.table), help: .setting(.table, showsDefault: false))
        var table: String = "text"

        func run() throws {
            try CommandFailure.guarding {
                _ = try ExperimentSettings(given: [.table: .text(table)])
                // Merging into a shard would overwrite it, and the shard set could never be merged again.
                if let shard = folders.first(where: { FolderLock.sameFolder($0, as: out) }) {
                    throw InputError(setting: .out, "\(out) is the shard folder \(shard) given to merge; write the merge into another \(Setting.out)")
                }
                let failed = try OutputClaim.holding(out, keepsPartial: false, quiet: quiet) { lock in try merge(besides: lock) }
                if failed > 0 { throw CommandFailure.exit("\(failed) session(s) failed; see the error column of sessions.csv") }
            }
        }

        /// Merges the shards into the claimed --out folder and returns the number of failed sessions.
        private func merge(besides out: FolderLock) throws -> Int {
            let shardLocks = try claimShardFolders(besides: out)
            defer { shardLocks.forEach { $0.release(removingCreatedFolders: false) } }
            let merger = try ShardMerger(folders: folders)
            // The shards' warnings once more, whatever --quiet says: their own stderr may be in
            // a dozen job logs.
            merger.warnings.forEach(CommandFailure.warn)
            let outURL = URL(fileURLWithPath: self.out)
            let folder = try OutputFolder(outURL)
            // Every file is written here first, so a merge killed half-way leaves its files where
            // the next run into the folder removes them wholesale.
            let scratch = outURL.appendingPathComponent(ResumableResults.partialFolderName)
            try? FileManager.default.removeItem(at: scratch)
            guard mkdir(scratch.path, 0o755) == 0 else {
                throw InputError(file: scratch.path, "cannot create the folder for partial results: \(String(cString: strerror(errno)))")
            }
            let merged = try merger.merge(into: outURL, temporaryFolder: scratch)
            let shard = merged.shard
            let ranking = merged.report.ranking(seed: shard.seed, rankBy: RankMetric(rawValue: shard.rankBy) ?? .mean, baselineID: shard.baseline)
            // The plan's run.json, as the unsharded run writes it but for how it was run.
            let run = try AtomicFile(outURL.appendingPathComponent(OutputFolder.manifestName), temporaryFolder: scratch)
            try run.write(merged.manifest)
            try run.flush()
            for file in try merged.files + ranking.files(for: outURL, temporaryFolder: scratch) + [run] { try file.commit() }
            try? FileManager.default.removeItem(at: scratch)
            try folder.removeStale(keeping: merger.fileNames)
            if table == "json" {
                Console.print(String(decoding: ranking.json(), as: UTF8.self))
            } else if !quiet {
                Console.print(RankedTable.render(ranking, source: RankedTable.Source(manifest: merged.manifest)), terminator: "")
                Console.print("merged \(shard.count) shards (\(shard.totalSessions) sessions) into \(self.out)/")
            }
            return merged.report.failureCount
        }

        /// Locks each shard folder once (the --out folder is already held): a compare still
        /// writing a shard makes the merge refuse instead of reading it half-way.
        private func claimShardFolders(besides out: FolderLock) throws -> [FolderLock] {
            var locks: [FolderLock] = []
            do {
                for path in folders where !out.claimsSameFolder(as: path) && !locks.contains(where: { $0.claimsSameFolder(as: path) }) {
                    var isFolder: ObjCBool = false
                    // A missing shard folder is for ShardMerger to name.
                    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { continue }
                    locks.append(try FolderLock(claiming: URL(fileURLWithPath: path), for: .input))
                }
            } catch {
                locks.forEach { $0.release(removingCreatedFolders: false) }
                throw error
            }
            return locks
        }
    }
}
