import ABRLab
import Foundation

extension Ranking {
    /// `summary.csv` and `ranked.json` for `directory`, written in full under temporary names in
    /// `temporaryFolder` and ready to commit: a finished run or merge commits them with its
    /// other files once every file is written.
    public func files(for directory: URL, temporaryFolder: URL? = nil) throws(InputError) -> [AtomicFile] {
        let summary = try AtomicFile(directory.appendingPathComponent("summary.csv"), temporaryFolder: temporaryFolder)
        try summary.write(summaryCSV)
        try summary.flush()
        let ranked = try AtomicFile(directory.appendingPathComponent("ranked.json"), temporaryFolder: temporaryFolder)
        try ranked.write(String(decoding: json(), as: UTF8.self) + "\n")
        try ranked.flush()
        return [summary, ranked]
    }
}
