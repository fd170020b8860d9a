import ABRLab
import ABRLabCompare
import ABRLabFetch
import ArgumentParser

/// The low-speed limit of a download, as curl's `--speed-limit` and `--speed-time`: what
/// `datasets fetch` and `reproduce` take.
struct DatasetsFetchLimits: ParsableArguments {
    @Option(help: ArgumentHelp("End a download slower than this many bytes a second over --speed-time (0: no limit).", valueName: "bytes-per-s"))
    var speedLimit = LowSpeedLimit.standard.bytesPerSecond

    @Option(help: ArgumentHelp("Seconds a download may stay under --speed-limit before it is ended.", valueName: "seconds"))
    var speedTime = LowSpeedLimit.standard.seconds

    /// The limit; a value out of range is refused naming its option.
    func lowSpeed() throws(InputError) -> LowSpeedLimit {
        guard speedLimit >= 0 else { throw InputError(file: "--speed-limit", "must be 0 (no limit) or more bytes a second, not \(speedLimit)") }
        guard speedTime > 0, speedTime.isFinite else { throw InputError(file: "--speed-time", "must be a number of seconds above 0, not \(speedTime)") }
        return LowSpeedLimit(bytesPerSecond: speedLimit, seconds: speedTime)
    }
}
