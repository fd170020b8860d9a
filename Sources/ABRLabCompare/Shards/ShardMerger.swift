import ABRLab
import ABRLabResults
import Foundation

/// Puts the folders of a sharded compare back together. Shards hold contiguous trace ranges in
/// run order and every data file is a header followed by whole chunks (plain rows, or gzip
/// members or Zstandard frames that never span two traces), so the merged files are the header
/// followed by each shard's body in shard order: byte for byte what the unsharded run writes,
/// copied in blocks in constant memory. Only `sessions.csv` is also parsed, one row at a time,
/// for the summaries.
public struct ShardMerger {
    /// One shard folder: what its run.json says about the shard. The rest of run.json (which
    /// lists every trace of the plan) is read again only for the first shard, so memory does
    /// not grow with shards × traces.
    public struct Part {
        let folder: URL
        let shard: ShardManifest
        let fingerprint: String
        /// The files its code read, checked against every other shard's.
        let inputs: ShardInputs
        /// The shard's warnings; `nil` in a folder written before run.json recorded them.
        let warnings: [String]?
    }

    public let parts: [Part]

    /// Reads and checks every folder's `run.json`: one plan, every shard exactly once.
    public init(folders: [String]) throws(InputError) {
        guard !folders.isEmpty else { throw InputError(file: "merge", "no shard folders given") }
        var parts: [Part] = []
        for folder in folders {
            let url = URL(fileURLWithPath: folder)
            let runURL = url.appendingPathComponent("run.json")
            let text = try Self.manifestText(of: url)
            try Self.refuseEarlierFormat(text, file: runURL.path)
            guard let (shardText, _) = Self.cuttingShard(from: text),
                  let shard = try? JSONDecoder().decode(ShardManifest.self, from: Data(shardText.utf8)),
                  let fingerprint = Self.fingerprint(in: text) else {
                throw InputError(file: runURL.path, mentioning: "has no shard entry: not written by compare \(Setting.shard)")
            }
            parts.append(Part(
                folder: url, shard: shard, fingerprint: fingerprint, inputs: try ShardInputs(manifest: text, file: runURL.path),
                warnings: Self.warnings(in: text)
            ))
        }
        let first = parts[0]
        for part in parts.dropFirst() where part.fingerprint != first.fingerprint || part.shard.count != first.shard.count {
            // A file edited between the shards' runs changes the fingerprint; say which one.
            if let conflict = ShardInputs.conflict(among: [(first.folder.path, first.inputs), (part.folder.path, part.inputs)]) { throw conflict }
            throw InputError(
                file: part.folder.path,
                "belongs to a different plan (fingerprint \(part.fingerprint.prefix(12)), \(part.shard.count) shards) than \(first.folder.path) (fingerprint \(first.fingerprint.prefix(12)), \(first.shard.count) shards)"
            )
        }
        var byIndex: [Int: Part] = [:]
        for part in parts {
            if let other = byIndex[part.shard.index] {
                throw InputError(file: part.folder.path, "is shard \(part.shard.index)/\(part.shard.count) again (also \(other.folder.path))")
            }
            byIndex[part.shard.index] = part
        }
        let missing = (0..<first.shard.count).filter { byIndex[$0] == nil }
        guard missing.isEmpty else {
            let list = missing.map { "\($0)/\(first.shard.count)" }.joined(separator: ", ")
            throw InputError(file: "merge", "shard\(missing.count > 1 ? "s" : "") \(list) missing")
        }
        self.parts = (0..<first.shard.count).compactMap { byIndex[$0] }
        // Files loaded at run time are not in the fingerprint: each must have the same bytes in
        // every shard that loaded it.
        if let conflict = ShardInputs.conflict(among: self.parts.map { ($0.folder.path, $0.inputs) }) { throw conflict }
        var expectedTrace = 0
        for part in self.parts {
            guard part.shard.firstTrace == expectedTrace else {
                throw InputError(file: part.folder.appendingPathComponent("run.json").path, "its traces do not follow the previous shard's")
            }
            expectedTrace += part.shard.traces
        }
    }

    /// A shard folder's run.json.
    public static func manifestText(of folder: URL) throws(InputError) -> String {
        let runURL = folder.appendingPathComponent("run.json")
        guard let data = FileManager.default.contents(atPath: runURL.path) else {
            throw InputError(file: runURL.path, "missing: not a compare result folder, or its run did not finish")
        }
        guard let text = String(data: data, encoding: .utf8), text.hasPrefix("{\n"), text.hasSuffix("}\n") else {
            throw InputError(file: runURL.path, "is not the run.json of an abrlab run (corrupt)")
        }
        return text
    }

    /// The `shard` entry's JSON and run.json without it: the text abrlab's encoder writes (sorted
    /// keys, two spaces per level) cut at the entry's lines, so the rest stays byte for byte the
    /// unsharded run's. `nil` when there is no entry.
    public static func cuttingShard(from text: String) -> (shard: String, rest: String)? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: "  \"shard\" : {"),
              let end = lines[start...].firstIndex(where: { $0 == "  }" || $0 == "  }," }) else { return nil }
        let shard = "{\n" + lines[(start + 1)..<end].joined(separator: "\n") + "\n}"
        let wasLast = lines[end] == "  }"
        lines.removeSubrange(start...end)
        if wasLast, start > 0, lines[start - 1].hasSuffix(",") { lines[start - 1].removeLast() }
        return (shard, lines.joined(separator: "\n"))
    }

    /// A shard of abrlab 0.1.0 (no `format`; keys that were Swift property names) is refused
    /// naming the release that wrote it: this release reads run.json's format 2 only.
    static func refuseEarlierFormat(_ text: String, file: String) throws(InputError) {
        guard !text.contains("\n  \"format\" : \(RunManifest.format),") else { return }
        let version = text.range(of: "\n  \"version\" : \"").map { text[$0.upperBound...].prefix { $0 != "\"" } } ?? "before 0.2.0"
        throw InputError(
            file: file,
            "was written by abrlab \(version), whose run.json this release (\(ABRLabVersion.current)) does not read; merge these shards with abrlab \(version), or rerun them"
        )
    }

    public static func fingerprint(in text: String) -> String? {
        // Found without splitting the whole text into lines: a grid's run.json has millions.
        guard let key = text.utf8.firstRange(of: "\n  \"fingerprint\" : \"".utf8) else { return nil }
        let value = text.utf8[key.upperBound...].prefix { $0 != UInt8(ascii: "\"") }
        return value.count == 64 ? String(Substring(value)) : nil
    }

    /// The files the merged folder holds, sorted, as the unsharded run's `files` lists them.
    public var fileNames: [String] {
        (Array(parts[0].shard.files.keys) + ["summary.csv", "ranked.json", OutputFolder.manifestName]).sorted()
    }

    /// Writes the merged data files for `out` in `temporaryFolder`, ready to commit, and returns
    /// them with the report of every session. Nothing appears in `out`: its files are committed
    /// together once every shard checked out and every file is written.
    public func merge(into out: URL, temporaryFolder: URL) throws(InputError)
        -> (files: [AtomicFile], report: ExperimentReport, shard: ShardManifest, manifest: String) {
        let first = parts[0].shard
        var report = ExperimentReport(strategyIDs: first.strategies)
        report.grouped = first.files["groups.csv"] != nil
        var files: [AtomicFile] = []
        for name in first.files.keys.sorted() {
            let output = try AtomicFile(out.appendingPathComponent(name), temporaryFolder: temporaryFolder)
            let header = try Self.header(of: name, grouped: first.files["groups.csv"] != nil)
            try output.write(bytes: header)
            for part in parts {
                let url = part.folder.appendingPathComponent(name)
                guard let recorded = part.shard.files[name] else {
                    throw InputError(file: url.path, "is missing from the shard's run.json")
                }
                try Self.copyBody(of: url, header: header, expected: recorded, into: output)
                if name == "groups.csv" { try GroupsCSVReader.read(url, into: &report) }
                if name == "sessions.csv" {
                    let rows = try SessionsCSVReader.read(url, into: &report)
                    guard rows == part.shard.sessions else {
                        throw InputError(file: url.path, "has \(rows) sessions; its run.json says \(part.shard.sessions)")
                    }
                }
            }
            try output.flush()
            files.append(output)
        }
        return (files, report, first, try mergedManifest())
    }

    /// The first shard's run.json without its `shard` entry, listing every file any shard's
    /// code loaded.
    private func mergedManifest() throws(InputError) -> String {
        var manifest = Self.cuttingShard(from: try Self.manifestText(of: parts[0].folder))?.rest ?? ""
        if parts.allSatisfy({ $0.warnings != nil }) { manifest = Self.replacingWarnings(in: manifest, with: warnings) }
        let inputs = parts[0].inputs
        guard parts.contains(where: { $0.inputs != inputs }) else { return manifest }
        do { return try inputs.union(parts.dropFirst().map(\.inputs)).replacingLists(in: manifest) } catch {
            throw InputError(file: parts[0].folder.appendingPathComponent("run.json").path, "cannot list the files the shards loaded")
        }
    }

    /// Every shard's warnings, as the unsharded run lists them (``RunWarnings/merged(_:)``).
    public var warnings: [String] {
        RunWarnings.merged(parts.map { $0.warnings ?? [] })
    }

    /// Where run.json's `warnings` list is, as abrlab's encoder writes it: from its key (two
    /// spaces in) to the bracket that closes it, in UTF-8 offsets. Keys are sorted, so the
    /// list is near the end, where the search starts: run.json lists every row and trace.
    private static func warningsRange(in text: String) -> Range<Int>? {
        let key = Array("\n  \"warnings\" : [".utf8)
        let close = Array("\n  ]".utf8)
        var bytes = text
        return bytes.withUTF8 { utf8 in
            guard var start = utf8.count >= key.count ? utf8.count - key.count : nil else { return nil }
            while !utf8[start..<(start + key.count)].elementsEqual(key) {
                guard start > 0 else { return nil }
                start -= 1
            }
            var end = start + key.count
            while end + close.count <= utf8.count, !utf8[end..<(end + close.count)].elementsEqual(close) { end += 1 }
            return end + close.count <= utf8.count ? (start + 1)..<(end + close.count) : nil
        }
    }

    /// The `warnings` list of a run.json's text; `nil` when it has none.
    public static func warnings(in text: String) -> [String]? {
        guard let range = warningsRange(in: text) else { return nil }
        let list = Array(text.utf8.dropFirst(range.lowerBound).prefix(range.count)).drop { $0 != UInt8(ascii: "[") }
        return try? JSONDecoder().decode([String].self, from: Data(list))
    }

    /// `text` with its `warnings` list replaced by `lines`, written as the encoder writes it.
    public static func replacingWarnings(in text: String, with lines: [String]) -> String {
        guard let range = warningsRange(in: text) else { return text }
        var bytes = Array(text.utf8.prefix(range.lowerBound))
        bytes += Array("  \"warnings\" : ".utf8)
        PrettyJSON.append(.array(lines.map { .string($0) }), indent: 2, to: &bytes)
        bytes += text.utf8.dropFirst(range.upperBound)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The header a data file starts with: its CSV header line, a block of its own (gzip member
    /// or Zstandard frame) in compressed files; `grouped` for a run whose players share links.
    public static func header(of name: String, grouped: Bool = false) throws(InputError) -> [UInt8] {
        let headers = Dictionary(uniqueKeysWithValues: SegmentsFormat.allCases.compactMap { format in
            format.fileName.map { ($0, grouped ? SessionCSV.groupedSegmentsHeader : SessionCSV.segmentsHeader) }
        } + [
            ("sessions.csv", grouped ? SessionCSV.groupedSessionsHeader : SessionCSV.sessionsHeader),
            ("transitions.csv", grouped ? SessionCSV.groupedTransitionsHeader : SessionCSV.transitionsHeader),
            ("formats.csv", grouped ? SessionCSV.groupedFormatsHeader : SessionCSV.formatsHeader),
            ("buffer_timeline.csv", grouped ? SessionCSV.groupedTimelineHeader : SessionCSV.timelineHeader), ("groups.csv", GroupCSV.header),
        ])
        guard let header = headers[name] else { throw InputError(file: name, "is not a data file abrlab writes") }
        let line = Array(CSVRow.line(header).utf8)
        return FileCompression(fileName: name)?.block(line) ?? line
    }

    /// Appends everything after `header` in the file at `url`, checking its size and CRC-32.
    private static func copyBody(of url: URL, header: [UInt8], expected: ShardManifest.File, into output: AtomicFile) throws(InputError) {
        guard let handle = try? FileHandle(forReadingFrom: url) else { throw InputError(file: url.path, "missing or unreadable") }
        defer { try? handle.close() }
        var crc: UInt32 = 0
        var length: UInt64 = 0
        var start: [UInt8] = []
        while true {
            let block: [UInt8]
            do { block = [UInt8](try handle.read(upToCount: 1 << 20) ?? Data()) } catch {
                throw InputError(file: url.path, "cannot read the file")
            }
            if block.isEmpty { break }
            crc = Gzip.crc32(block, continuing: crc)
            length += UInt64(block.count)
            if start.count < header.count {
                let take = min(header.count - start.count, block.count)
                start += block[0..<take]
                if start.count == header.count, start != header {
                    throw InputError(file: url.path, "does not start with the header this abrlab writes (corrupt or foreign)")
                }
                try output.write(bytes: Array(block[take...]))
            } else {
                try output.write(bytes: block)
            }
        }
        guard length == expected.bytes, crc == expected.crc32, start == header else {
            throw InputError(file: url.path, "does not match the size and checksum its run.json records (corrupt, truncated or changed)")
        }
    }
}
