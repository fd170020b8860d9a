import Foundation

extension Ranking {
    /// Writes `summary.csv` and `ranked.json` into `directory`, each under a temporary name
    /// first, as a finished run or merge leaves them.
    public func writeFiles(to directory: URL) throws(InputError) {
        let summary = try AtomicFile(directory.appendingPathComponent("summary.csv"))
        try summary.write(summaryCSV)
        try summary.commit()
        let ranked = try AtomicFile(directory.appendingPathComponent("ranked.json"))
        try ranked.write(String(decoding: json(), as: UTF8.self) + "\n")
        try ranked.commit()
    }
}
