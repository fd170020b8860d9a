import ABRLab
import ArgumentParser
import Foundation

/// Reading option values the commands share, so every command words the same mistake alike.
enum OptionParsing {
    /// A trace format named by `option`.
    static func traceFormat(_ text: String, option: String) throws(InputError) -> TraceFormat {
        guard let format = TraceFormat(rawValue: text) else {
            let names = TraceFormat.allCases.map(\.rawValue).joined(separator: ", ")
            throw InputError(file: option, "unknown trace format '\(text)'; choose one of \(names)")
        }
        return format
    }

    /// Most worker threads a command may start: each holds an 8 MiB stack, and a count past the
    /// machine's cores only adds switching.
    static let maximumJobs = 1024

    /// A seed: a whole number from 0 to 2⁶⁴ − 1 (ArgumentParser's own message names no range).
    static func seed(_ text: String) throws -> UInt64 {
        guard let value = UInt64(text) else { throw ValidationError("a seed is a whole number from 0 to \(UInt64.max)") }
        return value
    }

    /// `ewma:3,8` (half-lives in seconds) or `sliding:3` (window sizes in segments).
    static func estimator(_ text: String, option: String) throws(InputError) -> ThroughputEstimator.Method {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        let values = parts.count == 2 ? parts[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init) : []
        switch parts.first {
        case "ewma":
            let halfLives = values.compactMap(Double.init)
            guard !halfLives.isEmpty, halfLives.count == values.count, halfLives.allSatisfy({ $0.isFinite && $0 > 0 }) else {
                throw InputError(file: option, "'\(text)' is not ewma:H,... with half-lives in seconds > 0")
            }
            return .ewma(halfLivesSeconds: halfLives)
        case "sliding":
            let windows = values.compactMap { Int($0) }
            guard !windows.isEmpty, windows.count == values.count, windows.allSatisfy({ $0 >= 1 && $0 <= 20 }) else {
                throw InputError(file: option, "'\(text)' is not sliding:W,... with windows of 1 to 20 segments")
            }
            return .sliding(windowSegments: windows)
        default:
            throw InputError(file: option, "'\(text)' is neither ewma:H,... nor sliding:W,...")
        }
    }

    /// Positive kbps values separated by commas, e.g. `300,750,1200`.
    static func kbpsList(_ text: String, option: String) throws(InputError) -> [Double] {
        let values = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard !values.isEmpty, values.allSatisfy({ ($0 ?? 0) > 0 && ($0 ?? 0) <= SyntheticVideoGenerator.maximumKbps }) else {
            throw InputError(file: option, "expected numbers above 0 and at most 1e9 separated by commas, got '\(text)'")
        }
        return values.compactMap { $0 }
    }

    /// Writes `traces` into `folder` (made when missing) in `format`, one file per trace named
    /// after it, and says so.
    static func writeTraces(_ traces: [NetworkTrace], format: TraceFormat, folder path: String) throws {
        try writeTraces(count: traces.count, format: format, folder: path) { traces[$0] }
    }

    /// Writes trace `index` of `0..<count`, made by `trace` only when its turn comes, so memory
    /// holds one trace at a time however many are written.
    static func writeTraces(count: Int, format: TraceFormat, folder path: String, _ trace: (Int) throws -> NetworkTrace) throws {
        let folder = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let suffix = format.fileExtension.map { "." + $0 } ?? ""
        for index in 0..<count {
            let made = try trace(index)
            let file = made.name.replacingOccurrences(of: "/", with: "_") + suffix
            try TraceWriter.write(made, format: format, to: folder.appendingPathComponent(file))
        }
        print("wrote \(count) trace(s) to \(path)/")
    }
}
