import ABRLab
import ArgumentParser

@main
struct Abrlab: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "abrlab",
        abstract: "Trace-driven adaptive-bitrate streaming experiments.",
        discussion: """
            abrlab emulates video streaming sessions over recorded or synthetic network traces, \
            runs bitrate strategies (native Swift or Lua scripts) and scores their quality of experience.

            Example:
              abrlab compare
            """,
        version: ABRLabVersion.current,
        subcommands: [Compare.self, Merge.self, Diff.self, Run.self, Replay.self, Export.self, Strategies.self, Traces.self, Videos.self, Bench.self]
    )

    static func main() {
        InterruptCleanup.install()
        main(nil)
    }
}
