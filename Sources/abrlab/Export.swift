import ArgumentParser

extension Abrlab {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Export a session in other formats.",
            subcommands: [ExportHLS.self]
        )
    }
}
