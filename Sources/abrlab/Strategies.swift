import ArgumentParser

extension Abrlab {
    struct Strategies: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "strategies",
            abstract: "List strategies and check scripts.",
            discussion: """
                Example:
                  abrlab strategies
                  abrlab strategies check Strategies/bba.lua
                """,
            subcommands: [StrategiesList.self, StrategiesCheck.self],
            defaultSubcommand: StrategiesList.self
        )
    }
}
