import ABRLab
import ABRLabCompare
import ABRLabDatasets
import ArgumentParser

extension Abrlab {
    struct StrategiesList: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List native strategies and the scripts under a folder (id, name, description, source).",
            discussion: """
                Any id listed can be given to --strategies and --baseline. Scripts in sub-folders are listed \
                too, after the folder's own; under Strategies/ a script's id is its path there without .lua \
                (sabre/bola), elsewhere its file name. Folders named lib hold modules and are skipped, as are \
                files and folders starting with _. A script with a native \
                strategy's id is marked "shadowed by native": its id runs the native strategy, so run \
                the script by its file name.

                Example:
                  abrlab strategies list
                """
        )

        @Option(help: "Folder of Lua strategies.")
        var folder: String = Defaults.strategiesFolder

        func run() throws {
            try CommandFailure.guarding {
                let scripts = try StrategyResolver(params: ParamAssignments()).luaTree(folder)
                var shadowing = StrategyResolver.ShadowReport()
                var rows = [["id", "name", "source", "description"]]
                for descriptor in StrategyResolver.native + scripts {
                    var source = descriptor.source
                    if descriptor.source != "native", StrategyResolver.native.contains(where: { $0.id == descriptor.id }) {
                        shadowing.report(path: descriptor.source, nativeID: descriptor.id, .shadowed)
                        source += " (shadowed by native)"
                    }
                    rows.append([descriptor.id, descriptor.name, source, descriptor.description])
                }
                Console.print(RankedTable.layout(rows, leftColumns: 4), terminator: "")
                shadowing.warnings.forEach { CommandFailure.warn($0.commandLineText) }
            }
        }
    }
}
