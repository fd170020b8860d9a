import ABRLab
import ABRLabCompare
import ABRLabDatasets
import ArgumentParser
import Foundation

extension Abrlab {
    struct DatasetsVerify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Re-hash installed datasets against the registry and name every file that differs.",
            discussion: """
                With no id, every installed dataset. Exits 1 when a file is missing, changed or extra.

                Example:
                  abrlab datasets verify
                  abrlab datasets verify pensieve/test
                """
        )

        @Argument(help: "Dataset ids; none: every installed dataset.")
        var ids: [String] = []

        func run() throws {
            try CommandFailure.guarding {
                let registry = try DatasetRegistry.shipped()
                let store = DatasetStore()
                let chosen = try ids.map { id throws(InputError) in try registry.dataset(id) }
                let datasets = ids.isEmpty ? registry.datasets.filter { store.status(of: $0) != .missing } : chosen
                if datasets.isEmpty {
                    Console.print("no dataset installed in \(store.root.path)")
                    return
                }
                var failed = false
                for dataset in datasets {
                    if case .missing = store.status(of: dataset) { throw store.notInstalled(dataset, named: dataset.id) }
                    let problems = store.verify(dataset)
                    if problems.isEmpty {
                        Console.print("\(dataset.id): ok (\(DatasetText.files(dataset.files.count)))")
                    } else {
                        failed = true
                        problems.forEach { Console.error("abrlab: \(dataset.id): \($0)\n") }
                        Console.print("\(dataset.id): \(problems.count) of its files differ from the registry; run: abrlab datasets fetch --force \(dataset.id)")
                    }
                }
                if failed { throw ExitCode(1) }
            }
        }
    }
}
