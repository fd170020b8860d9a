import ABRLab
import ABRLabFormats
import Foundation

/// One entry of the dataset registry (`Datasets/registry.json`): what the dataset is, where it
/// comes from, and every file's path, size and SHA-256, so a copy is either exactly it or refused.
public struct Dataset: Sendable, Equatable {
    /// What the dataset is for, which says how an input option uses it.
    public enum Kind: String, Sendable, Decodable {
        case traces, video, model, checkpoint, manifests
    }

    /// One file, its path relative to the dataset's folder.
    public struct File: Sendable, Equatable, Decodable {
        public let path: String
        public let bytes: Int
        public let sha256: String

        public init(path: String, bytes: Int, sha256: String) {
            self.path = path
            self.bytes = bytes
            self.sha256 = sha256
        }
    }

    public struct Citation: Sendable, Equatable, Decodable {
        public let text: String
        public let doi: String
    }

    /// Where `fetch` gets the files when no mirror is named.
    public enum Upstream: Sendable, Equatable {
        /// A public GitHub repository at a fixed commit; files lie under `path` there.
        case github(repository: String, commit: String, path: String, rename: [String: String], note: String)
        /// A folder abrlab ships (found as `Strategies/` is): files never published upstream.
        case shipped(path: String, rename: [String: String], note: String)

        public var note: String {
            switch self {
            case .github(_, _, _, _, let note), .shipped(_, _, let note): note
            }
        }

        /// One line: the repository at its commit and the path, or the shipped folder.
        public var summary: String {
            switch self {
            case .github(let repository, let commit, let path, _, _): "github.com/\(repository) @\(commit) \(path)/"
            case .shipped(let path, _, _): "shipped with abrlab: \(path)/"
            }
        }
    }

    public let id: String
    /// Other ids that name this dataset (`train/fcc-hd` for `sabre/fcc-hd`).
    public let aliases: [String]
    public let kind: Kind
    public let description: String
    /// The dataset's folder in a dataset root (`pensieve/cooked_test_traces`): where a mirror
    /// holds its files.
    public let base: String
    /// The file inside the folder an input option takes (a model, a manifest); `nil`: the folder.
    public let input: String?
    public let upstream: Upstream
    public let licence: String
    public let citations: [Citation]
    /// How the dataset relates to others (a training set's overlap with the test sets).
    public let relation: String?
    /// The registry's hash of the dataset: ``listingHash(_:)`` of its files.
    public let sha256: String
    public let files: [File]

    /// The SHA-256 of the lines `SHA256  BYTES  PATH`, sorted by path: one hash for the whole
    /// dataset, which `run.json` records beside the id.
    public static func listingHash(_ files: [File]) -> String {
        let text = files.sorted { $0.path < $1.path }.map { "\($0.sha256)  \($0.bytes)  \($0.path)\n" }.joined()
        return SHA256.hex(Array(text.utf8))
    }

    public var totalBytes: Int { files.reduce(0) { $0 + $1.bytes } }

    /// Whether `name` is this dataset's id or one of its aliases.
    public func isNamed(_ name: String) -> Bool { id == name || aliases.contains(name) }
}

extension Dataset: Decodable {
    private enum CodingKeys: String, CodingKey {
        case id, aliases, kind, description, base, input, upstream, licence, citations, relation, sha256, files
    }

    private struct UpstreamRecord: Decodable {
        let kind: String
        let repository: String?
        let commit: String?
        let path: String
        let rename: [String: String]?
        let note: String
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        aliases = try container.decodeIfPresent([String].self, forKey: .aliases) ?? []
        kind = try container.decode(Kind.self, forKey: .kind)
        description = try container.decode(String.self, forKey: .description)
        base = try container.decode(String.self, forKey: .base)
        input = try container.decodeIfPresent(String.self, forKey: .input)
        licence = try container.decode(String.self, forKey: .licence)
        citations = try container.decode([Citation].self, forKey: .citations)
        relation = try container.decodeIfPresent(String.self, forKey: .relation)
        sha256 = try container.decode(String.self, forKey: .sha256)
        files = try container.decode([File].self, forKey: .files)
        let record = try container.decode(UpstreamRecord.self, forKey: .upstream)
        switch (record.kind, record.repository, record.commit) {
        case ("github", let repository?, let commit?):
            upstream = .github(repository: repository, commit: commit, path: record.path, rename: record.rename ?? [:], note: record.note)
        case ("shipped", nil, nil):
            upstream = .shipped(path: record.path, rename: record.rename ?? [:], note: record.note)
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .upstream, in: container,
                debugDescription: "upstream must be {kind: github, repository, commit, path} or {kind: shipped, path}"
            )
        }
    }
}
