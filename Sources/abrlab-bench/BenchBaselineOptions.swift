import ArgumentParser
import Foundation

/// What `abrlab-bench` runs beside this binary, for figures that are ratios: an older build of
/// abrlab (`engine`) and Sabre's own simulator (`sabre`). On a shared machine whose speed drifts,
/// only runs interleaved in one sitting compare; each figure is a median over `rounds`.
struct BenchBaselineOptions: ParsableArguments {
    @Option(name: .customLong("baseline-binary"), help: "An older abrlab, e.g. a release build of 54970d0 or 76a60e0, run beside this one in the engine section (its floor from the abrlab-bench beside it, where there is one).")
    var baselineBinary: String?

    @Option(name: .customLong("baseline-strategies"), help: "The older abrlab's Lua strategies (default: the Strategies folder of the checkout it was built in).")
    var baselineStrategies: String?

    @Option(help: "Interleaved rounds of each side-by-side figure (1…99).")
    var rounds: Int = 5

    @Option(name: .customLong("sabre-py"), help: "Sabre's sabre.py, run beside --profile sabre in the sabre section, two processes at a time.")
    var sabrePy: String?

    @Option(help: "The Python that runs --sabre-py.")
    var python: String = "python3"

    func validate() throws {
        guard (1...99).contains(rounds) else { throw ValidationError("--rounds must be 1…99") }
        if let baselineBinary, !FileManager.default.isExecutableFile(atPath: baselineBinary) {
            throw ValidationError("--baseline-binary: \(baselineBinary) is not an executable file")
        }
        if let sabrePy, !FileManager.default.fileExists(atPath: sabrePy) {
            throw ValidationError("--sabre-py: \(sabrePy) not found")
        }
    }

    /// The baseline's strategies folder: as given, else `Strategies` in the checkout whose
    /// `.build/<configuration>/abrlab` the binary is.
    func baselineStrategiesFolder(for binary: String) -> String {
        if let baselineStrategies { return baselineStrategies }
        let checkout = URL(fileURLWithPath: binary).standardizedFileURL
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return checkout.appendingPathComponent("Strategies").path
    }
}
