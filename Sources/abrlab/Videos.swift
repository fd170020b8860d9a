import ArgumentParser

extension Abrlab {
    struct Videos: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "videos",
            abstract: "Generate synthetic videos, or import encoded ones.",
            discussion: """
                Example:
                  abrlab videos generate --out /tmp/video.json --segments 100
                """,
            subcommands: [VideosGenerate.self, VideosImport.self]
        )
    }
}
