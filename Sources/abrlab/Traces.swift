import ArgumentParser

extension Abrlab {
    struct Traces: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Inspect, convert and generate network traces.",
            subcommands: [TracesInfo.self, TracesConvert.self, TracesGenerate.self, TracesImport.self]
        )
    }
}
