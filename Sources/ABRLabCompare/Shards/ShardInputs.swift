import ABRLab
import Foundation

/// The files a shard's `run.json` says the plan's code read: each strategy's script and the
/// modules, models and parameter files it loaded, and a Lua QoE model's script and modules.
/// `merge` refuses shards that read different bytes of one file — a file edited between two
/// shards' runs — and the merged `run.json` lists every file any shard loaded, as the unsharded
/// run's does (a module a session loads by a name only running code knows may be loaded in one
/// shard only).
public struct ShardInputs: Decodable, Equatable {
    public struct File: Codable, Equatable {
        let path: String
        let bytes: Int
        let sha256: String
    }

    public struct Strategy: Decodable, Equatable {
        let id: String
        let file: File?
        var inputs: [File]
    }

    public var strategies: [Strategy]
    public let qoeFile: File?
    public var qoeInputs: [File]?

    enum CodingKeys: String, CodingKey { case strategies, qoeFile = "qoe_file", qoeInputs = "qoe_inputs" }

    /// Reads the entries from a run.json's text. Its keys are sorted, so everything from `qoe`
    /// on holds them and leaves out the long trace list before it.
    public init(manifest text: String, file: String) throws(InputError) {
        let tail = text.range(of: "\n  \"qoe\" : ").map { "{" + text[$0.lowerBound...] } ?? text
        do { self = try JSONDecoder().decode(ShardInputs.self, from: Data(tail.utf8)) } catch {
            throw InputError(file: file, "is not the run.json of an abrlab run (corrupt)")
        }
    }

    /// Every file with the owner that read it (`strategy bba`, `the QoE model`), scripts first.
    private var owned: [(owner: String, file: File)] {
        var files: [(String, File)] = []
        for strategy in strategies {
            if let file = strategy.file { files.append(("strategy \(strategy.id)", file)) }
            files += strategy.inputs.map { ("strategy \(strategy.id)", $0) }
        }
        if let qoeFile { files.append(("the QoE model", qoeFile)) }
        files += (qoeInputs ?? []).map { ("the QoE model", $0) }
        return files
    }

    /// The first file two shards read with different bytes, as the error `merge` reports: one
    /// line naming the file and both shards' folders.
    public static func conflict(among shards: [(folder: String, inputs: ShardInputs)]) -> InputError? {
        var first: [String: (sha256: String, folder: String)] = [:]
        for shard in shards {
            for (owner, file) in shard.inputs.owned {
                let key = owner + "\n" + file.path
                guard let earlier = first[key] else {
                    first[key] = (file.sha256, shard.folder)
                    continue
                }
                guard earlier.sha256 != file.sha256 else { continue }
                return InputError(
                    file: file.path,
                    "\(owner) read other bytes of this file in \(shard.folder) (sha256 \(file.sha256.prefix(12))) than in \(earlier.folder) "
                        + "(sha256 \(earlier.sha256.prefix(12))): it changed between the shards' runs; rerun the shards with the same files"
                )
            }
        }
        return nil
    }

    /// Each strategy's and the QoE model's files from `others` added to this one's, each path
    /// once, in path order.
    public func union(_ others: [ShardInputs]) -> ShardInputs {
        func merged(_ lists: [[File]]) -> [File] {
            var byPath: [String: File] = [:]
            for file in lists.joined() where byPath[file.path] == nil { byPath[file.path] = file }
            return byPath.values.sorted { $0.path < $1.path }
        }
        var result = self
        for index in result.strategies.indices {
            let id = result.strategies[index].id
            result.strategies[index].inputs = merged(
                [result.strategies[index].inputs] + others.map { $0.strategies.first { $0.id == id }?.inputs ?? [] }
            )
        }
        if let qoeInputs { result.qoeInputs = merged([qoeInputs] + others.map { $0.qoeInputs ?? [] }) }
        return result
    }

    /// `text` (a run.json) with each strategy's `inputs` and the `qoe_inputs` replaced by
    /// these, written as abrlab's encoder writes them; the rest stays byte for byte.
    public func replacingLists(in text: String) throws -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var index = 0
        var strategyID: String?
        var inStrategies = false
        while index < lines.count {
            let line = lines[index]
            if line == "  \"strategies\" : [" { inStrategies = true }
            if inStrategies, line == "  ]" || line == "  ]," { inStrategies = false }
            if inStrategies, line.hasPrefix("      \"id\" : ") {
                let value = line.dropFirst(13)
                strategyID = try JSONSerialization.jsonObject(
                    with: Data((value.hasSuffix(",") ? value.dropLast() : value).utf8), options: .fragmentsAllowed
                ) as? String
            }
            if inStrategies, line == "      \"inputs\" : [", let id = strategyID, let files = strategies.first(where: { $0.id == id })?.inputs {
                index = try replaceList(in: &lines, at: index, key: "inputs", indent: 6, with: files)
            } else if line == "  \"qoe_inputs\" : [", let files = qoeInputs {
                index = try replaceList(in: &lines, at: index, key: "qoe_inputs", indent: 2, with: files)
            }
            index += 1
        }
        return lines.joined(separator: "\n")
    }

    /// Replaces the array member opening at `start` with `files`; returns the index of its last line.
    private func replaceList(in lines: inout [String], at start: Int, key: String, indent: Int, with files: [File]) throws -> Int {
        let margin = String(repeating: " ", count: indent)
        guard let end = lines[start...].firstIndex(where: { $0 == margin + "]" || $0 == margin + "]," }) else { return start }
        let encoded = String(decoding: try PrettyJSON.encoder().encode(files), as: UTF8.self)
        var replacement = encoded.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { offset, line in
            offset == 0 ? margin + "\"\(key)\" : " + line : line.isEmpty ? "" : margin + line
        }
        if lines[end].hasSuffix(",") { replacement[replacement.count - 1] += "," }
        lines.replaceSubrange(start...end, with: replacement)
        return start + replacement.count - 1
    }
}
