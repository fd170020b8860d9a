import Foundation
import Testing
import TestSupport

/// Calls that trap instead of throwing are kept out of `Sources/`: `try!`, and FileHandle's
/// non-throwing reads, writes and seeks, which end the process with SIGILL on Linux when the
/// disk fills, a folder stands where a file should, or stderr is closed.
@Suite(.tags(.cli), .selectedByTags) struct SourceLintTests {
    static let sources: [(name: String, pattern: String)] = [
        ("try!", #"\btry!"#),
        ("readData(ofLength:)", #"\.readData\(ofLength:"#),
        ("readDataToEndOfFile()", #"\.readDataToEndOfFile\("#),
        ("seekToEndOfFile()", #"\.seekToEndOfFile\("#),
        ("seek(toFileOffset:)", #"\.seek\(toFileOffset:"#),
        ("truncateFile(atOffset:)", #"\.truncateFile\(atOffset:"#),
        ("FileHandle(for…AtPath:)", #"FileHandle\(for(Reading|Writing|Updating)AtPath:"#),
        ("closeFile()/synchronizeFile()", #"\.(closeFile|synchronizeFile)\(\)"#),
        ("availableData/offsetInFile", #"\.(availableData|offsetInFile)\b"#),
        // FileHandle's write(_:) takes no label; the throwing one is write(contentsOf:).
        ("FileHandle write(_:)", #"(FileHandle\.standard\w+|\b\w*[Hh]andle)\.write\((?!contentsOf:)"#),
    ]

    static func patterns() throws -> [(name: String, regex: NSRegularExpression)] {
        try sources.map { ($0.name, try NSRegularExpression(pattern: $0.pattern)) }
    }

    /// Every match in Sources, as `file:line: name: text`, comments left out.
    static func matches() throws -> [(file: String, text: String)] {
        let root = PackageRoot.file("Sources")
        let patterns = try patterns()
        var found: [(String, String)] = []
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted() ?? []
        for relative in files {
            let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = String(line)
                if code.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
                let range = NSRange(code.startIndex..., in: code)
                for (name, regex) in patterns where regex.firstMatch(in: code, range: range) != nil {
                    found.append(("Sources/\(relative)", "Sources/\(relative):\(index + 1): \(name): \(code.trimmingCharacters(in: .whitespaces))"))
                }
            }
        }
        return found
    }

    @Test func noTrappingFileCallsOrTryBangInSources() throws {
        let found = try Self.matches()
        #expect(FileManager.default.fileExists(atPath: PackageRoot.file("Sources/ABRLabFormats/Hashing/SHA256.swift").path), "no sources found")
        for match in found { Issue.record("\(match.text)") }
    }

    /// The patterns find what they are for, so an empty result means clean sources.
    @Test func thePatternsMatchTheCallsTheyName() throws {
        let patterns = try Self.patterns()
        let samples = [
            "let x = try" + "! f()", "handle.readData(ofLength: 4)", "h.readDataToEndOfFile()", "output.seekToEndOfFile()", "handle.truncateFile(atOffset: 0)",
            "FileHandle(forReadingAtPath: p)", "FileHandle.standardError.write(Data())", "handle.write(block)", "input.seek(toFileOffset: 3)",
        ]
        for sample in samples {
            let range = NSRange(sample.startIndex..., in: sample)
            #expect(patterns.contains { $0.regex.firstMatch(in: sample, range: range) != nil }, "\(sample)")
        }
        for clean in ["try handle.write(contentsOf: data)", "try handle.read(upToCount: 4)", "try TextFile.write(text, to: url)", "try sessions.write(line)"] {
            let range = NSRange(clean.startIndex..., in: clean)
            #expect(!patterns.contains { $0.regex.firstMatch(in: clean, range: range) != nil }, "\(clean)")
        }
    }
}
