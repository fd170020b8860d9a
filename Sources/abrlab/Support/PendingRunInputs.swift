import ABRLab
import Foundation

/// ``RunInputs`` read and hashed on other threads while the caller loads traces and builds the
/// plan: every shard hashes every trace of the run, and the loading it overlaps is one thread's.
final class PendingRunInputs: @unchecked Sendable {
    private let done = DispatchGroup()
    /// Written once on the worker before `done` is left, read only after waiting on it.
    private var value: RunInputs?

    init(videoSpec: String, video: ABRLab.Video, traceFiles: [(name: String, path: String)], jobs: Int) {
        done.enter()
        DispatchQueue.global().async {
            self.value = RunInputs(videoSpec: videoSpec, video: video, traceFiles: traceFiles, jobs: jobs)
            self.done.leave()
        }
    }

    /// The inputs, once read.
    var inputs: RunInputs {
        done.wait()
        return value!
    }
}
