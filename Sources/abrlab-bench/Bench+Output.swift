import ABRLab
import ABRLabResults
import Foundation

extension Bench {
    /// The same compare with each per-segment format, in interleaved rounds, then the compression
    /// alone at the levels and block sizes the formats could use: what the choices cost and save.
    func output() throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let rounds = 5
        let formats = SegmentsFormat.allCases.sorted { Self.outputOrder($0) < Self.outputOrder($1) }
        print("segment output: the seven shipped scripts of the default set and conservative over 300 of Sabre's hd_fs traces, --jobs \(cores), with --segments-format \(formats.map(\.rawValue).joined(separator: ", ")), \(rounds) interleaved rounds; load average \(Self.loadAverage())")
        guard let hd = dataset("sabre/mmsys18/hd_fs"), let movie = dataset("sabre/movie.json") else { return }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-bench-output-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let traces = scratch.appendingPathComponent("hd300")
        try FileManager.default.createDirectory(at: traces, withIntermediateDirectories: true)
        for index in 0..<300 {
            let name = String(format: "trace%04d.json", index)
            try FileManager.default.createSymbolicLink(at: traces.appendingPathComponent(name), withDestinationURL: hd.appendingPathComponent(name))
        }
        let eight = ["bba", "rb", "bola", "robust_mpc", "throughput", "dynamic", "festive"].map { "\(strategies)/\($0).lua" } + ["conservative"]
        let run = ["compare", "--strategies"] + eight + ["--traces", traces.path, "--video", movie.path, "--jobs", "\(cores)", "--quiet"]
        func folder(_ format: SegmentsFormat) -> URL { scratch.appendingPathComponent("out-\(format.rawValue)") }

        var wall: [SegmentsFormat: [Double]] = [:], cpu: [SegmentsFormat: [Double]] = [:], rss: [SegmentsFormat: [Double]] = [:]
        var wallRatios: [SegmentsFormat: [Double]] = [:], cpuRatios: [SegmentsFormat: [Double]] = [:]
        for round in 1...rounds {
            var seconds: [SegmentsFormat: (wall: Double, cpu: Double)] = [:]
            // Each round starts with another format, so none always runs first after a pause.
            for offset in 0..<formats.count {
                let format = formats[(round + offset) % formats.count]
                let child = try BenchmarkClock.child(run + ["--segments-format", format.rawValue, "--out", folder(format).path])
                guard child.status == 0 else { throw InputError(file: "bench", "the compare with --segments-format \(format.rawValue) exited with \(child.status)") }
                seconds[format] = (child.seconds, child.cpuSeconds)
                wall[format, default: []].append(child.seconds)
                cpu[format, default: []].append(child.cpuSeconds)
                rss[format, default: []].append(Double(child.peakBytes) / 1e6)
            }
            guard let plain = seconds[.csv] else { continue }
            for (format, value) in seconds {
                wallRatios[format, default: []].append(value.wall / plain.wall)
                cpuRatios[format, default: []].append(value.cpu / plain.cpu)
            }
        }
        let plainFile = folder(.csv).appendingPathComponent("segments.csv")
        let rows = try Self.dataRows(of: plainFile)
        print("  medians of \(rounds) rounds; × csv: the median of each round's ratio to the csv run; \(rows) segment rows")
        print("  format    wall s   CPU s   × csv wall  × csv CPU  peak RSS MB   segments file MB   bytes per row")
        for format in formats {
            let size = format.fileName.map { Self.fileSize(folder(format).appendingPathComponent($0)) } ?? 0
            let perRow = format.fileName == nil ? "-" : String(format: "%.1f", Double(size) / Double(rows))
            let name = format.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
            print("  " + name + String(format: " %7.2f %7.2f %10.3f %10.3f %11.1f %18.1f   ",
                                       Self.median(wall[format] ?? []), Self.median(cpu[format] ?? []),
                                       Self.median(wallRatios[format] ?? []), Self.median(cpuRatios[format] ?? []), Self.median(rss[format] ?? []),
                                       Double(size) / 1e6) + perRow)
        }
        print("  load average after: \(Self.loadAverage())")
        try compressionLevels(of: plainFile, rows: rows)
    }

    /// Compresses the plain rows on one thread, cut per trace into blocks as a run cuts them, with
    /// what either format writes and what it could: abrlab's rows encoder for gzip beside
    /// libdeflate's levels, Zstandard's levels, at several block sizes. Bytes per row and CPU
    /// time, the trade the choices make.
    private func compressionLevels(of file: URL, rows: Int) throws {
        let text = try [UInt8](Data(contentsOf: file))
        let plainBytes = text.count - (text.firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0)
        print("  compression alone, one thread, the same rows cut per trace as a run cuts them (\(String(format: "%.1f", Double(plainBytes) / Double(rows))) bytes a row; * marks what abrlab writes):")
        let gzipBlock = FileCompression.gzip.blockBytes, zstdBlock = FileCompression.zstd.blockBytes
        typealias Candidate = (name: String, blockBytes: Int, chosen: Bool, compress: ([UInt8]) -> [UInt8])
        let encoder: (Int) -> Candidate = { ("gzip rows encoder       ", $0, $0 == gzipBlock, { Gzip.member($0) }) }
        let libdeflate: (Int32, Int) -> Candidate = { level, block in ("gzip libdeflate level \(level) ", block, false, { Gzip.libdeflateMember($0, level: level) }) }
        let zstd: (Int32, Int) -> Candidate = { level, block in
            ("zstd libzstd level \(level)    ", block, level == Zstd.level && block == zstdBlock, { Zstd.frame($0, level: level) })
        }
        // libdeflate's levels in 16 KiB blocks, as abrlab wrote gzip before the rows encoder.
        let candidates: [Candidate] = [8 << 10, 16 << 10, 64 << 10, 1 << 20].map(encoder)
            + (1...6).map { libdeflate(Int32($0), 16 << 10) } + [64 << 10, 1 << 20].flatMap { block in [1, 2].map { libdeflate($0, block) } }
            + (1...3).map { zstd(Int32($0), zstdBlock) } + [16 << 10, 64 << 10].map { zstd(Zstd.level, $0) }
        var cut: [Int: [[UInt8]]] = [:]
        for candidate in candidates {
            let blocks = cut[candidate.blockBytes] ?? Self.blocks(of: text, blockBytes: candidate.blockBytes)
            cut[candidate.blockBytes] = blocks
            var bytes = 0
            let seconds = BenchmarkClock.cpuSeconds {
                bytes = blocks.reduce(0) { $0 + candidate.compress($1).count }
            }
            print("  \(candidate.chosen ? "*" : " ") \(candidate.name), blocks of \(String(format: "%4d", candidate.blockBytes >> 10)) KiB: "
                  + String(format: "%.1f bytes a row, %.0f MB/s, %.2f CPU s", Double(bytes) / Double(rows), Double(plainBytes) / seconds / 1e6, seconds))
        }
    }

    /// The rows of a plain segments.csv (header left out) cut as a run cuts them: each trace's
    /// rows apart, in blocks that end at the first line end past `blockBytes`.
    static func blocks(of text: [UInt8], blockBytes: Int) -> [[UInt8]] {
        let newline = UInt8(ascii: "\n"), comma = UInt8(ascii: ",")
        guard let headerEnd = text.firstIndex(of: newline) else { return [] }
        var blocks: [[UInt8]] = []
        var chunkStart = headerEnd + 1
        var lineStart = chunkStart
        var chunkTrace: ArraySlice<UInt8> = []
        func cut(_ chunk: ArraySlice<UInt8>) {
            var rest = chunk
            while let end = FileCompression.blockEnd(in: rest, filled: 0, blockBytes: blockBytes) {
                blocks.append(Array(rest[...end]))
                rest = rest[(end + 1)...]
            }
            if !rest.isEmpty { blocks.append(Array(rest)) }
        }
        while lineStart < text.count {
            let lineEnd = text[lineStart...].firstIndex(of: newline) ?? text.count - 1
            // The trace is the second field; the bench's names hold no comma or quote.
            let fields = text[lineStart..<lineEnd].split(separator: comma, maxSplits: 2, omittingEmptySubsequences: false)
            let trace = fields.count > 1 ? fields[1] : []
            if lineStart > chunkStart, trace != chunkTrace {
                cut(text[chunkStart..<lineStart])
                chunkStart = lineStart
            }
            chunkTrace = trace
            lineStart = lineEnd + 1
        }
        if chunkStart < text.count { cut(text[chunkStart...]) }
        return blocks
    }

    /// none, then csv (the reference of the ratios), then the compressed formats.
    private static func outputOrder(_ format: SegmentsFormat) -> Int {
        switch format {
        case .none: 0
        case .csv: 1
        case .csvGzip: 2
        case .csvZstd: 3
        }
    }

    private static func dataRows(of file: URL) throws -> Int {
        let text = try [UInt8](Data(contentsOf: file))
        return text.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) } - 1
    }

    private static func fileSize(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// /proc/loadavg's three averages, so figures from a shared machine say how busy it was.
    static func loadAverage() -> String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "unknown" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }
}
