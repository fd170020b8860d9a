import ArgumentParser

extension Abrlab {
    struct Videos: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Generate synthetic videos.",
            subcommands: [VideosGenerate.self]
        )
    }
}
