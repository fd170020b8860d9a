import ABRLab
import Foundation

/// The trace files of ``RunInputs``, read and hashed on other threads from the moment the trace
/// set is listed: every shard hashes every trace of the run, and the strategies, video and
/// this shard's traces load meanwhile on the caller's thread.
public final class PendingRunInputs: Sendable {
    private let names: [String]
    private let reading: Workers<[RunInputs.File?]>

    /// The trace files as the resolver lists them: their standardized absolute paths are recorded
    /// (``TraceSetResolver/Entry/path``), and a name that is not UTF-8 is opened by its bytes.
    public init(traces: [TraceSetResolver.Entry], jobs: Int) {
        names = traces.map(\.name)
        let paths = traces.map { (path: $0.path, rawSpelled: $0.file.rawSpelled) }
        reading = Parallel.start(threads: 1) { _ in RunInputs.read(paths, jobs: jobs) }
    }

    /// The inputs, once the traces are read; the video's files are read meanwhile.
    public func inputs(videoSpec: String, video: ABRLab.Video) -> RunInputs {
        let record = RunInputs.Video(spec: videoSpec, video: video)
        let files = reading.join()[0]
        return RunInputs(video: record, traces: zip(names, files).map { RunInputs.Trace(name: $0, file: $1) })
    }
}
