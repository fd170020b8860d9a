import ArgumentParser

extension Abrlab {
    struct Traces: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "traces",
            abstract: "Inspect, convert, generate and import network traces.",
            discussion: """
                Example:
                  abrlab traces info Traces/3g
                  abrlab traces generate --preset 4g --count 5 --out-dir /tmp/4g
                """,
            subcommands: [TracesInfo.self, TracesConvert.self, TracesGenerate.self, TracesImport.self]
        )
    }
}
