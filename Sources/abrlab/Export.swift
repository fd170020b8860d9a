import ArgumentParser

extension Abrlab {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Export a session in other formats.",
            discussion: """
                Example:
                  abrlab export hls --trace Traces/3g/3g_1.csv --video audio --out /tmp/session.m3u8
                """,
            subcommands: [ExportHLS.self]
        )
    }
}
