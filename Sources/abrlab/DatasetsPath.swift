import ABRLab
import ABRLabCompare
import ABRLabDatasets
import ArgumentParser

extension Abrlab {
    struct DatasetsPath: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "path",
            abstract: "Print where an installed dataset is read from (its folder, or its model or manifest file).",
            discussion: """
                The path an id stands for in --traces, --video and --param. A dataset not fetched yet \
                is an error naming the command that fetches it.

                Example:
                  abrlab datasets path pensieve/test
                """
        )

        @Argument(help: "A dataset id (see abrlab datasets list).")
        var id: String

        func run() throws {
            try CommandFailure.guarding {
                let registry = try DatasetRegistry.shipped()
                let dataset = try registry.dataset(id)
                let store = DatasetStore()
                guard store.status(of: dataset) == .installed else { throw store.notInstalled(dataset, named: id) }
                Console.print(store.inputPath(of: dataset))
            }
        }
    }
}
