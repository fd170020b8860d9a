import ABRLab
import ABRLabCompare
import ABRLabDatasets
import ArgumentParser

extension Abrlab {
    struct DatasetsInfo: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "info",
            abstract: "Describe one dataset: origin, licence, citation, files and where it is installed.",
            discussion: """
                Example:
                  abrlab datasets info pensieve/test
                """
        )

        @Argument(help: "A dataset id (see abrlab datasets list).")
        var id: String

        @Flag(help: "Also list every file with its size and SHA-256.")
        var files = false

        func run() throws {
            try CommandFailure.guarding {
                let dataset = try DatasetRegistry.shipped().dataset(id)
                let store = DatasetStore()
                var lines = [
                    "id: \(dataset.id)" + (dataset.aliases.isEmpty ? "" : " (also \(dataset.aliases.joined(separator: ", ")))"),
                    "kind: \(dataset.kind.rawValue)",
                    "description: \(dataset.description)",
                    "files: \(dataset.files.count), \(DatasetText.size(dataset.totalBytes)) (\(dataset.totalBytes) bytes)",
                    "sha256: \(dataset.sha256)",
                    "upstream: \(dataset.upstream.summary)",
                    "  \(dataset.upstream.note)",
                    "mirror layout: \(dataset.base)/",
                    "licence: \(dataset.licence)",
                ]
                lines += dataset.citations.map { "cite: \($0.text). doi:\($0.doi)" }
                if let relation = dataset.relation { lines.append("relation: \(relation)") }
                lines.append("status: \(store.statusText(of: dataset))")
                lines.append("path: \(store.inputPath(of: dataset))")
                if files { lines += dataset.files.map { "  \($0.sha256)  \($0.bytes)  \($0.path)" } }
                Console.print(lines.joined(separator: "\n"))
            }
        }
    }
}
