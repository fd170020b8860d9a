import Foundation

/// The settings and inputs two `run.json` files disagree on, as key paths
/// (`inputs.video.sizes_sha256`, `strategies[bba].file.sha256`, `profile.max_buffer_s`).
/// Entries of arrays are named by their `id`, `name` or `key` when they have one, files by
/// their file name (`strategies[x].inputs[helpers.lua].sha256`). What cannot change
/// a result — the command line, `--jobs`, file paths and the files written — is left out, and so
/// are the plan fingerprint (a hash of what the other keys show), a shard's bookkeeping and the
/// warnings (said about inputs whose hashes are compared, and naming them by path).
public enum ManifestDifferences {
    public static let ignoredKeys: Set<String> = ["command", "jobs", "files", "path", "fingerprint", "shard", "warnings"]

    public static func keys(_ a: Any, _ b: Any) -> [String] {
        let left = flatten(a, prefix: "")
        let right = flatten(b, prefix: "")
        return Set(left.keys).union(right.keys).filter { left[$0] != right[$0] }.sorted()
    }

    /// Every leaf of a JSON value by key path, as text.
    public static func flatten(_ value: Any, prefix: String) -> [String: String] {
        var result: [String: String] = [:]
        switch value {
        case let object as [String: Any]:
            for (key, child) in object where !ignoredKeys.contains(key) {
                result.merge(flatten(child, prefix: prefix.isEmpty ? key : prefix + "." + key)) { first, _ in first }
            }
        case let array as [Any]:
            let names = array.map { child -> String? in
                let object = child as? [String: Any]
                let path = (object?["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent }
                return (object?["id"] ?? object?["name"] ?? object?["key"]).map { "\($0)" } ?? path
            }
            let uses = names.reduce(into: [String: Int]()) { counts, name in if let name { counts[name, default: 0] += 1 } }
            for (index, child) in array.enumerated() {
                // A name two entries share (two files called helpers.lua) falls back to the index.
                let name = names[index].flatMap { uses[$0] == 1 ? $0 : nil } ?? String(index)
                result.merge(flatten(child, prefix: prefix + "[" + name + "]")) { first, _ in first }
            }
        default:
            result[prefix] = value is NSNull ? "null" : "\(value)"
        }
        return result
    }
}
