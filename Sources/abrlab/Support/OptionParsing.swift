import ABRLab
import ABRLabCompare
import ABRLabFormats
import ABRLabResults
import ABRLabSettings
import ArgumentParser
import Foundation

/// Reading option values the commands share, so every command words the same mistake alike.
enum OptionParsing {
    /// A trace format named by `option`.
    static func traceFormat(_ text: String, option: String) throws(InputError) -> TraceFormat {
        try SettingParsing.traceFormat(text, subject: .file(option))
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
        Console.print("wrote \(count) trace(s) to \(path)/")
    }
}
