import ABRLab
import ArgumentParser

extension Abrlab {
    struct StrategiesList: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List native strategies and the scripts in a folder (id, name, description, source).",
            discussion: """
                Example:
                  abrlab strategies list
                """
        )

        @Option(help: "Folder of Lua strategies.")
        var folder: String = Defaults.strategiesFolder

        func run() throws {
            try CommandFailure.guarding {
                let scripts = try StrategyResolver(params: ParamAssignments()).luaFolder(folder)
                var rows = [["id", "name", "source", "description"]]
                for descriptor in StrategyResolver.native + scripts.map({ $0.descriptor() }) {
                    rows.append([descriptor.id, descriptor.name, descriptor.source, descriptor.description])
                }
                print(RankedTable.layout(rows, leftColumns: 4), terminator: "")
            }
        }
    }
}
