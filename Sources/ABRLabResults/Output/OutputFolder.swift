import ABRLab
import Foundation

/// An output folder as a run owns it: the files the previous run wrote (listed in its
/// `run.json`) are replaced or removed, other files are left alone, and result files that no
/// recorded run wrote make the run refuse the folder rather than mix with them.
public struct OutputFolder: Sendable {
    public let directory: URL
    /// Files the previous run wrote, by name.
    public let previousFiles: [String]

    /// The manifest that lists a run's files.
    public static let manifestName = "run.json"
    /// Every file a comparison writes under some option, so a folder holding one of them without
    /// a manifest is recognised as someone else's results.
    public static let resultFileNames = [
        "sessions.csv", "segments.csv", "segments.csv.gz", "segments.csv.zst", "transitions.csv", "summary.csv", "ranked.json", "formats.csv",
        "buffer_timeline.csv", "groups.csv", "run.json", "dashjs-records.jsonl",
    ]

    /// Reads what a previous run left in `directory`. Throws when the folder cannot be owned:
    /// its `run.json` is not abrlab's, or it holds result files with no manifest listing them.
    public init(_ directory: URL) throws(InputError) {
        self.directory = directory
        let manifestURL = directory.appendingPathComponent(Self.manifestName)
        let present = Set((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        guard present.contains(Self.manifestName) else {
            if let foreign = Self.resultFileNames.first(where: present.contains) {
                throw InputError(
                    file: directory.appendingPathComponent(foreign).path,
                    mentioning: "not written by a run abrlab recorded (the folder has no run.json); remove it or choose another \(Setting.out)"
                )
            }
            previousFiles = []
            return
        }
        guard let data = FileManager.default.contents(atPath: manifestURL.path),
              let manifest = try? JSONDecoder().decode(ManifestHead.self, from: data) else {
            throw InputError(file: manifestURL.path, mentioning: "is not the run.json of an abrlab run; choose another \(Setting.out)")
        }
        // Manifests before the files list was added own the standard names.
        let listed = manifest.files ?? Self.resultFileNames
        previousFiles = listed.filter { Self.isOwnable($0) && present.contains($0) }.sorted()
    }

    /// Removes the previous run's files that `current` does not replace.
    public func removeStale(keeping current: [String]) throws(InputError) {
        let keep = Set(current)
        for name in previousFiles where !keep.contains(name) {
            let url = directory.appendingPathComponent(name)
            do { try FileManager.default.removeItem(at: url) } catch {
                throw InputError(file: url.path, "cannot remove this file of the previous run: \(error.localizedDescription)")
            }
        }
    }

    /// Removes what runs killed in `directory` left: temporary files of result files, and in
    /// `.abrlab-partial/` every temporary file and, unless it holds a compare's checkpoints (a
    /// recorded plan), the folder itself. Only for the holder of the folder's ``FolderLock``:
    /// no live run owns them then, whatever process id their names carry.
    public static func removeLeftovers(in directory: URL) {
        let partial = directory.appendingPathComponent(ResumableResults.partialFolderName)
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        where resultFileNames.contains(where: { AtomicFile.temporaryOwner(of: entry, finalName: $0) != nil }) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(entry))
        }
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: partial.path) else { return }
        guard ResumableResults.recordedPlan(in: partial) != nil else {
            try? FileManager.default.removeItem(at: partial)
            return
        }
        for entry in entries where AtomicFile.isTemporaryName(entry) {
            try? FileManager.default.removeItem(at: partial.appendingPathComponent(entry))
        }
    }

    /// What ownership needs of a `run.json`: a string `version`, an array `command` and the
    /// `files` list; the rest (every input's hash, a thousand traces' worth) is skipped unbuilt.
    private struct ManifestHead: Decodable {
        let files: [String]?

        private enum CodingKeys: String, CodingKey { case version, command, files }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            _ = try container.decode(String.self, forKey: .version)
            _ = try container.nestedUnkeyedContainer(forKey: .command)
            files = try? container.decodeIfPresent([String].self, forKey: .files)
        }
    }

    /// Plain file names of the kinds abrlab writes; never a path, so a manifest cannot point
    /// outside its folder.
    static func isOwnable(_ name: String) -> Bool {
        !name.contains("/") && !name.hasPrefix(".") && [".csv", ".csv.gz", ".csv.zst", ".json", ".jsonl"].contains { name.hasSuffix($0) }
    }
}
