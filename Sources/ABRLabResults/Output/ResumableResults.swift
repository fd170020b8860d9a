#if canImport(Glibc)
import Glibc
#endif
import Foundation
import ABRLab

/// A comparison's output folder, written so that a run killed at any point can be resumed and
/// still end byte for byte like an uninterrupted one.
///
/// Data files grow in `.abrlab-partial/` inside the folder, one trace at a time (all sessions of one
/// trace) at a time; compressed ones in blocks that the run's workers compress. Every couple
/// of seconds the files are synced and a checkpoint is appended
/// to `journal`: the number of traces complete and each file's length and CRC-32, the line
/// protected by its own CRC. A resumed run checks the bytes against the last intact
/// checkpoint, cuts off whatever came after it and continues from the next trace, so work that
/// was not checkpointed is redone and never taken for complete. When the run finishes the files
/// move to their real names and `summary.csv`, `ranked.json` and `run.json` appear last; files
/// of the folder's previous run that this one does not write are then removed.
public final class ResumableResults {
    /// The files a run writes, in the order rows are appended.
    public struct Layout: Equatable, Sendable {
        public var segments: SegmentsFormat
        public var formats: Bool
        public var timeline: Bool
        /// Whether players share links: `group` and `player` columns in every per-session file, and `groups.csv`.
        public var groups: Bool

        public init(segments: SegmentsFormat, formats: Bool, timeline: Bool, groups: Bool = false) {
            self.segments = segments
            self.formats = formats
            self.timeline = timeline
            self.groups = groups
        }

        /// Data file names, with each one's header.
        public var files: [(name: String, header: [String])] {
            var files: [(String, [String])] = [("sessions.csv", groups ? SessionCSV.groupedSessionsHeader : SessionCSV.sessionsHeader)]
            if let name = segments.fileName { files.append((name, groups ? SessionCSV.groupedSegmentsHeader : SessionCSV.segmentsHeader)) }
            files.append(("transitions.csv", groups ? SessionCSV.groupedTransitionsHeader : SessionCSV.transitionsHeader))
            if formats { files.append(("formats.csv", groups ? SessionCSV.groupedFormatsHeader : SessionCSV.formatsHeader)) }
            if timeline { files.append(("buffer_timeline.csv", groups ? SessionCSV.groupedTimelineHeader : SessionCSV.timelineHeader)) }
            if groups { files.append(("groups.csv", GroupCSV.header)) }
            return files
        }

        /// One session's lines for each data file, in ``files`` order, as UTF-8.
        func lines(_ session: SessionCSV) -> [[UInt8]] {
            var parts = [Array(session.sessionLine.utf8)]
            if segments != .none { parts.append(session.segmentBytes) }
            parts.append(session.transitionBytes)
            if formats { parts.append(Array(session.formatLines.utf8)) }
            if timeline { parts.append(Array(session.timelineLines.utf8)) }
            if groups { parts.append(Array(session.groupLines.utf8)) }
            return parts
        }
    }

    public static let partialFolderName = ".abrlab-partial"

    public let directory: URL
    public let layout: Layout
    /// Chunks whose rows are in the files: the first `tracesDone` traces of the run.
    public private(set) var tracesDone = 0
    /// Whether a resumed run found that it had already finished and only moved files.
    public private(set) var wasFinished = false
    /// Seconds between checkpoints; each costs one sync per file.
    public var checkpointInterval: Duration = .seconds(2)
    /// Files known only once every session has run (`dashjs-records.jsonl`), by name: written whole by
    /// ``finish(ranking:manifest:)`` beside the others, listed in ``fileNames``.
    public var finalFiles: [(name: String, bytes: [UInt8])] = []
    /// The blocks of compressed files waiting to be compressed: the run's workers call
    /// ``CompressionQueue/compressWaiting()`` between sessions, so compression scales with them.
    public let compressionQueue = CompressionQueue()

    private let partial: URL
    private let folder: OutputFolder
    private var files: [JournaledFile] = []
    private var journal: Int32 = -1
    private var lastCheckpoint = ContinuousClock.now

    /// Opens `directory` for a run identified by `identity` (its plan fingerprint and shard).
    /// With `resume`, continues an interrupted run of the same identity if there is one; a
    /// partial run of another identity is an error. Without it, any partial run is discarded.
    public init(directory: URL, layout: Layout, identity: String, resume: Bool) throws(InputError) {
        self.directory = directory
        self.layout = layout
        partial = directory.appendingPathComponent(Self.partialFolderName)
        folder = try OutputFolder(directory)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw InputError(file: directory.path, "cannot create the output folder")
        }
        // A run that stopped before its plan was recorded (killed, or out of disk space) left
        // nothing to continue, and starts over.
        if resume, let recorded = Self.recordedPlan(in: partial) {
            guard recorded == identity else {
                // Identities name their format on the first line since 0.2.0; 0.1.0's began with
                // its fingerprint, computed another way, so no plan of this release matches it.
                if recorded.hasPrefix("fingerprint ") {
                    throw InputError(
                        file: partial.path,
                        mentioning: "holds an interrupted run of abrlab 0.1.0, which this release (\(ABRLabVersion.current)) cannot continue: its plans are fingerprinted another way; resume it with abrlab 0.1.0, or run without \(Setting.resume)"
                    )
                }
                throw InputError(file: partial.path, mentioning: "holds an interrupted run of a different plan or shard; remove it or run without \(Setting.resume)")
            }
            if let record = Self.lastCheckpoint(in: partial.appendingPathComponent("journal")), try reopen(record) { return }
        }
        try start(identity: identity)
    }

    /// The identity of the run whose checkpoints `partial` holds; `nil` when none was recorded.
    public static func recordedPlan(in partial: URL) -> String? {
        guard let text = try? String(contentsOf: partial.appendingPathComponent("plan"), encoding: .utf8), !text.isEmpty else { return nil }
        return text
    }

    deinit { if journal >= 0 { close(journal) } }

    /// Where the rows of the sessions already complete are, and how many bytes of it count.
    public var completedSessions: (url: URL, length: UInt64) { completed("sessions.csv") }

    /// Where the rows of data file `name` already complete are, and how many bytes of it count.
    public func completed(_ name: String) -> (url: URL, length: UInt64) {
        let inPartial = partial.appendingPathComponent(name)
        if let file = files.first(where: { $0.name == name }) { return (file.url, file.length) }
        let url = FileManager.default.fileExists(atPath: inPartial.path) ? inPartial : directory.appendingPathComponent(name)
        let size = ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.uint64Value
        return (url, size ?? 0)
    }

    /// Appends the sessions of the next trace, in session order.
    public func append(trace sessions: [SessionCSV]) throws(InputError) {
        for session in sessions { try append(session) }
        try endTrace()
    }

    /// Appends one session of the trace being written: the files take its rows at once, so a
    /// trace's memory does not grow with its sessions (a parameter grid's thousands of rows).
    public func append(_ session: SessionCSV) throws(InputError) {
        for (file, lines) in zip(files, layout.lines(session)) { try file.append(part: lines) }
    }

    /// Ends the trace whose sessions were appended; a checkpoint may follow.
    public func endTrace() throws(InputError) {
        for file in files { try file.endBatch() }
        tracesDone += 1
        if ContinuousClock.now - lastCheckpoint >= checkpointInterval { try checkpoint(finished: false) }
    }

    /// Each data file's final size and CRC-32, every block compressed and stored first.
    public func checksums() throws(InputError) -> [String: (bytes: UInt64, crc32: UInt32)] {
        var result: [String: (bytes: UInt64, crc32: UInt32)] = [:]
        for file in files {
            try file.storePending()
            result[file.name] = (file.length, file.crc)
        }
        for (name, _) in layout.files where result[name] == nil {
            let inPartial = partial.appendingPathComponent(name)
            let url = FileManager.default.fileExists(atPath: inPartial.path) ? inPartial : directory.appendingPathComponent(name)
            let size = ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.uint64Value ?? 0
            result[name] = (size, JournaledFile.checksum(of: url, prefix: size) ?? 0)
        }
        return result
    }

    /// The names of the files ``finish(ranking:manifest:)`` leaves in the folder, sorted.
    public var fileNames: [String] {
        (layout.files.map(\.name) + finalFiles.map(\.name) + ["summary.csv", "ranked.json", OutputFolder.manifestName]).sorted()
    }

    /// Records the run as complete, moves the data files to their real names, writes
    /// `summary.csv`, `ranked.json` and then `run.json`, and removes what is left of the
    /// folder's previous run (see ``OutputFolder``).
    public func finish(ranking: Ranking, manifest: Data) throws(InputError) {
        if !wasFinished { try checkpoint(finished: true) }
        // Every file is written before any moves, so a full disk leaves the folder as it was.
        let run = try AtomicFile(directory.appendingPathComponent(OutputFolder.manifestName), temporaryFolder: partial)
        try run.write(String(decoding: manifest, as: UTF8.self) + "\n")
        try run.flush()
        var written = try ranking.files(for: directory, temporaryFolder: partial) + [run]
        for file in finalFiles {
            let atomic = try AtomicFile(directory.appendingPathComponent(file.name), temporaryFolder: partial)
            try atomic.write(bytes: file.bytes)
            try atomic.flush()
            written.append(atomic)
        }
        for (name, _) in layout.files {
            let source = partial.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            guard rename(source.path, directory.appendingPathComponent(name).path) == 0 else {
                throw InputError(file: directory.appendingPathComponent(name).path, "cannot move the file into place")
            }
        }
        for file in written { try file.commit() }
        files = []
        try? FileManager.default.removeItem(at: partial)
        try folder.removeStale(keeping: fileNames)
    }

    // MARK: - Journal

    private struct Record {
        var traces: Int
        var finished: Bool
        var files: [(name: String, length: UInt64, crc: UInt32)]
    }

    private func start(identity: String) throws(InputError) {
        try? FileManager.default.removeItem(at: partial)
        guard mkdir(partial.path, 0o755) == 0 else {
            throw InputError(file: partial.path, "cannot create the folder for partial results: \(String(cString: strerror(errno)))")
        }
        // Recorded whole or not at all: a plan cut short by a full disk would make the same
        // command's --resume refuse the folder as another plan's.
        let plan = try AtomicFile(partial.appendingPathComponent("plan"))
        try plan.write(identity)
        try plan.commit()
        files = try layout.files.map { (name, header) throws(InputError) in
            try JournaledFile(
                creating: partial.appendingPathComponent(name), name: name, encoding: encoding(of: name), header: CSVRow.line(header)
            )
        }
        // No checkpoint yet: a run killed before its first one has an empty journal, and --resume
        // starts it over, which is all a checkpoint of zero traces would allow. That spares
        // every run (and every shard) one round of syncs.
        try openJournal(truncating: true)
    }

    /// Continues from `record`; `false` when its files no longer line up with the layout.
    private func reopen(_ record: Record) throws(InputError) -> Bool {
        guard record.files.map(\.name) == layout.files.map(\.name) else { return false }
        tracesDone = record.traces
        if record.finished {
            wasFinished = true
            return true
        }
        files = try record.files.map { entry throws(InputError) in
            try JournaledFile(
                resuming: partial.appendingPathComponent(entry.name), name: entry.name, encoding: encoding(of: entry.name),
                length: entry.length, crc: entry.crc
            )
        }
        try openJournal(truncating: false)
        return true
    }

    private func encoding(of name: String) -> JournaledFile.Encoding {
        FileCompression(fileName: name).map { .compressed($0, compressionQueue) } ?? .plain
    }

    private func openJournal(truncating: Bool) throws(InputError) {
        let path = partial.appendingPathComponent("journal").path
        journal = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (truncating ? O_TRUNC : 0), 0o644)
        guard journal >= 0 else { throw InputError(file: path, "cannot open the journal") }
    }

    /// Syncs every file, then appends and syncs one journal line that vouches for their bytes.
    private func checkpoint(finished: Bool) throws(InputError) {
        try Self.syncAll(files)
        // Each record starts on a fresh line, so one torn by a crash stays apart from the next.
        var line = "traces=\(tracesDone) finished=\(finished ? 1 : 0)"
        for file in files { line += " \(file.name)=\(file.length):\(file.crc)" }
        line += " check=\(Gzip.crc32(Array(line.utf8)))"
        let bytes = Array(("\n" + line + "\n").utf8)
        let path = partial.appendingPathComponent("journal").path
        guard bytes.withUnsafeBytes({ write(journal, $0.baseAddress, $0.count) }) == bytes.count, fsync(journal) == 0 else {
            throw InputError(file: path, "cannot write the journal: \(String(cString: strerror(errno)))")
        }
        lastCheckpoint = .now
    }

    /// Syncs the files at the same time: their flushes to the disk overlap instead of queueing,
    /// which every shard's final checkpoint waits on. Each file is touched by one thread.
    private static func syncAll(_ files: [JournaledFile]) throws(InputError) {
        let errors = Parallel.map(files.count, threads: files.count) { index -> InputError? in
            do throws(InputError) {
                try files[index].sync()
                return nil
            } catch {
                return error
            }
        }
        if let error = errors.lazy.compactMap({ $0 }).first { throw error }
    }

    /// The last journal line whose check matches; a torn or damaged tail is ignored.
    private static func lastCheckpoint(in url: URL) -> Record? {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        var last: Record?
        for line in text.split(separator: "\n") {
            guard let checkRange = line.range(of: " check="),
                  UInt32(line[checkRange.upperBound...]) == Gzip.crc32(Array(line[..<checkRange.lowerBound].utf8)) else { continue }
            var record = Record(traces: -1, finished: false, files: [])
            for field in line[..<checkRange.lowerBound].split(separator: " ") {
                guard let equals = field.lastIndex(of: "=") else { continue }
                let key = String(field[..<equals])
                let value = field[field.index(after: equals)...]
                switch key {
                case "traces": record.traces = Int(value) ?? -1
                case "finished": record.finished = value == "1"
                default:
                    let parts = value.split(separator: ":")
                    guard parts.count == 2, let length = UInt64(parts[0]), let crc = UInt32(parts[1]) else { continue }
                    record.files.append((key, length, crc))
                }
            }
            if record.traces >= 0 { last = record }
        }
        return last
    }
}
