import ABRLab
import Foundation

/// Writes a comparison's output folder: `sessions.csv`, `segments.csv`, `transitions.csv` as
/// sessions arrive, then `summary.csv`, `ranked.json` and `run.json`. Nothing appears under its
/// real name until ``finish(ranking:manifest:)`` succeeds; then the files of the folder's
/// previous run that this run does not write are removed (see ``OutputFolder``). The caller owns
/// the folder (see ``FolderLock``).
public final class ResultsWriter {
    public let directory: URL
    private let folder: OutputFolder
    private let sessions: AtomicFile
    private let segments: AtomicFile
    private let transitions: AtomicFile
    private let formats: AtomicFile?
    private let timeline: AtomicFile?

    /// `writesFormats` adds `formats.csv`, for videos whose levels carry formats;
    /// `writesTimeline` adds `buffer_timeline.csv`, every session's buffer sampled at 10 Hz.
    /// Throws when the folder holds results that no recorded abrlab run wrote.
    public init(directory: URL, writesFormats: Bool = false, writesTimeline: Bool = false) throws(InputError) {
        self.directory = directory
        folder = try OutputFolder(directory)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw InputError(file: directory.path, "cannot create the output folder")
        }
        OutputFolder.removeLeftovers(in: directory)
        sessions = try AtomicFile(directory.appendingPathComponent("sessions.csv"))
        segments = try AtomicFile(directory.appendingPathComponent("segments.csv"))
        transitions = try AtomicFile(directory.appendingPathComponent("transitions.csv"))
        try sessions.write(CSVRow.line(SessionCSV.sessionsHeader))
        try segments.write(CSVRow.line(SessionCSV.segmentsHeader))
        try transitions.write(CSVRow.line(SessionCSV.transitionsHeader))
        formats = writesFormats ? try AtomicFile(directory.appendingPathComponent("formats.csv")) : nil
        try formats?.write(CSVRow.line(SessionCSV.formatsHeader))
        timeline = writesTimeline ? try AtomicFile(directory.appendingPathComponent("buffer_timeline.csv")) : nil
        try timeline?.write(CSVRow.line(SessionCSV.timelineHeader))
    }

    /// The names of the files ``finish(ranking:manifest:)`` leaves in the folder, sorted.
    public var fileNames: [String] {
        ([sessions, segments, transitions, formats, timeline].compactMap { $0?.url.lastPathComponent }
            + ["summary.csv", "ranked.json", OutputFolder.manifestName]).sorted()
    }

    public func append(_ session: SessionCSV) throws(InputError) {
        try sessions.write(session.sessionLine)
        try segments.write(bytes: session.segmentBytes)
        try transitions.write(bytes: session.transitionBytes)
        try formats?.write(session.formatLines)
        try timeline?.write(session.timelineLines)
    }

    /// Writes the summaries and the manifest, moves every file into place, then removes what is
    /// left of the previous run.
    public func finish(ranking: Ranking, manifest: Data) throws(InputError) {
        let summary = try AtomicFile(directory.appendingPathComponent("summary.csv"))
        try summary.write(ranking.summaryCSV)
        let ranked = try AtomicFile(directory.appendingPathComponent("ranked.json"))
        try ranked.write(String(decoding: ranking.json(), as: UTF8.self) + "\n")
        let run = try AtomicFile(directory.appendingPathComponent(OutputFolder.manifestName))
        try run.write(String(decoding: manifest, as: UTF8.self) + "\n")
        for file in [sessions, segments, transitions, summary, ranked] + [formats, timeline].compactMap({ $0 }) + [run] {
            try file.commit()
        }
        try folder.removeStale(keeping: fileNames)
    }
}
