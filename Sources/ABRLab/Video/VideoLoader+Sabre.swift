import Foundation

extension VideoLoader {
    /// Reads a Sabre manifest: `{"segment_duration_ms", "bitrates_kbps", "segment_sizes_bits"}`,
    /// sizes indexed `[segment][level]`.
    ///
    /// Sizes become bytes as `bits / 8`, rounded up when not whole: a partial byte still has to
    /// cross the network, and rounding up never shortens a download. The bits are kept too, for
    /// models that count bits (the `sabre` profile). The video is named after the file without `.json`.
    public static func loadSabreManifest(_ url: URL) throws(InputError) -> Video {
        let file = TextFile.displayName(url)
        return try parseSabreManifest(TextFile.read(url), file: file, name: TraceLoader.traceName(forFile: file))
    }

    /// Parses the text of a Sabre manifest; `file` names it in errors.
    public static func parseSabreManifest(_ text: String, file: String, name: String) throws(InputError) -> Video {
        let root = try LocatedJSON.parse(text, file: file)
        var durationMilliseconds: Double?
        var ladder: [BitrateLevel]?
        var rows: [LocatedJSON]?
        for (key, value) in try root.members(file: file, what: "a Sabre manifest") {
            switch key {
            case "segment_duration_ms":
                durationMilliseconds = try value.positive(file: file, what: key)
            case "bitrates_kbps":
                var kbps: [Double] = []
                for (index, element) in try value.elements(file: file, what: key).enumerated() {
                    kbps.append(try element.number(file: file, what: "\(key)[\(index)]"))
                }
                ladder = try self.ladder(kbps: kbps, file: file, line: value.line)
            case "segment_sizes_bits":
                rows = try value.elements(file: file, what: key)
            default:
                throw InputError(
                    file: file, line: value.line,
                    "unknown key \"\(key)\"; a Sabre manifest has segment_duration_ms, bitrates_kbps and segment_sizes_bits"
                )
            }
        }
        guard let durationMilliseconds else { throw InputError(file: file, line: root.line, "the manifest has no segment_duration_ms") }
        guard let ladder else { throw InputError(file: file, line: root.line, "the manifest has no bitrates_kbps") }
        guard let rows else { throw InputError(file: file, line: root.line, "the manifest has no segment_sizes_bits") }
        var sizesBytes: [[Int]] = []
        var sizesBits: [[Double]] = []
        sizesBytes.reserveCapacity(rows.count)
        sizesBits.reserveCapacity(rows.count)
        for (segment, row) in rows.enumerated() {
            let what = "segment_sizes_bits[\(segment)]"
            let sizes = try row.elements(file: file, what: what)
            guard sizes.count == ladder.count else {
                throw InputError(file: file, line: row.line, "\(what) has \(sizes.count) sizes for \(ladder.count) bitrates")
            }
            var rowBytes: [Int] = []
            var rowBits: [Double] = []
            rowBytes.reserveCapacity(sizes.count)
            for (level, size) in sizes.enumerated() {
                let bits = try size.positive(file: file, what: "\(what)[\(level)]")
                guard bits <= 1e15 else { throw InputError(file: file, line: size.line, "\(what)[\(level)] is too large") }
                rowBytes.append(Int((bits / 8).rounded(.up)))
                rowBits.append(bits)
            }
            sizesBytes.append(rowBytes)
            sizesBits.append(rowBits)
        }
        guard !sizesBytes.isEmpty else { throw InputError(file: file, line: root.line, "segment_sizes_bits lists no segments") }
        return try makeVideo(
            file: file, name: name, segmentDurationSeconds: durationMilliseconds / 1000, ladder: ladder, sizesBytes: sizesBytes
        ).withSizesBits(sizesBits)
    }
}
