import ABRLab
import ABRLabCompare
import ABRLabDatasets
import ArgumentParser

extension Abrlab {
    struct DatasetsList: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the registry's datasets (id, kind, files, size, whether installed).",
            discussion: """
                The registry is Datasets/registry.json: every file's path, size and SHA-256. Aliases \
                follow their id in brackets.

                Example:
                  abrlab datasets list
                """
        )

        func run() throws {
            try CommandFailure.guarding {
                let registry = try DatasetRegistry.shipped()
                let store = DatasetStore()
                var rows = [["id", "kind", "status", "files", "size"]]
                for dataset in registry.datasets {
                    let name = dataset.aliases.isEmpty ? dataset.id : "\(dataset.id) (\(dataset.aliases.joined(separator: ", ")))"
                    rows.append([name, dataset.kind.rawValue, store.statusText(of: dataset), String(dataset.files.count), DatasetText.size(dataset.totalBytes)])
                }
                Console.print(RankedTable.layout(rows, leftColumns: 3), terminator: "")
                Console.print("cache: \(store.root.path)")
            }
        }
    }
}
