import ArgumentParser

extension Abrlab {
    struct Strategies: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List strategies and check scripts.",
            subcommands: [StrategiesList.self, StrategiesCheck.self],
            defaultSubcommand: StrategiesList.self
        )
    }
}
