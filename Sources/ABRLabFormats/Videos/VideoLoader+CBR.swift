import ABRLab

extension VideoLoader {
    static let cbrPrefix = "cbr:"

    /// A CBR video from a spec `cbr:<kbps>[,<kbps>…][@<duration>][x<count>]`:
    /// - the ladder in kbps, ascending: `cbr:300,750,1200`;
    /// - `@` and the segment duration with its unit, `s` or `ms`: `@4s`, `@2500ms`;
    /// - `x` and the number of segments: `x60`.
    ///
    /// So `cbr:300,750,1200@2sx90` is three levels, ninety 2 s segments. Parts the spec leaves out
    /// come from the arguments, then from `VideoPreset`'s defaults (4 s, 48 segments); an argument
    /// that contradicts the spec is an error. The video is named after the spec.
    public static func cbr(
        _ spec: String, ladderKbps: [Double]? = nil, segmentDurationSeconds: Double? = nil, segmentCount: Int? = nil
    ) throws(InputError) -> Video {
        guard spec.lowercased().hasPrefix(cbrPrefix) else { throw InputError(file: spec, "a CBR spec starts with \(cbrPrefix)") }
        var rest = Substring(spec.dropFirst(cbrPrefix.count))
        var specCount: Int?
        if let x = rest.lastIndex(where: { $0 == "x" || $0 == "X" }) {
            let text = rest[rest.index(after: x)...]
            guard let count = Int(text), count > 0 else {
                throw InputError(file: spec, "segment count '\(InputError.excerpt(text))' after x must be a whole number > 0")
            }
            specCount = count
            rest = rest[..<x]
        }
        var specDurationSeconds: Double?
        if let at = rest.firstIndex(of: "@") {
            specDurationSeconds = try cbrDurationSeconds(rest[rest.index(after: at)...], spec: spec)
            rest = rest[..<at]
        }
        var specKbps: [Double] = []
        for field in rest.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = TextLines.trimmed(field)
            guard let kbps = Double(trimmed) else {
                throw InputError(file: spec, "'\(InputError.excerpt(trimmed))' is not a bitrate in kbps; write e.g. cbr:300,750,1200@4s")
            }
            specKbps.append(kbps)
        }
        let ladder = try self.ladder(kbps: specKbps, file: spec)
        if let ladderKbps, ladderKbps != ladder.map(\.bitrateKbps) {
            throw InputError(file: spec, "the spec's ladder differs from the given \(kbpsList(ladderKbps))")
        }
        if let specDurationSeconds, let segmentDurationSeconds, specDurationSeconds != segmentDurationSeconds {
            throw InputError(file: spec, "the spec's segment duration differs from the given \(NumberText.plain(segmentDurationSeconds)) s")
        }
        if let specCount, let segmentCount, specCount != segmentCount {
            throw InputError(file: spec, "the spec's segment count differs from the given \(segmentCount)")
        }
        do {
            return try Video(
                name: spec,
                segmentDurationSeconds: specDurationSeconds ?? segmentDurationSeconds ?? VideoPreset.defaultSegmentDurationSeconds,
                ladder: ladder, segmentCount: specCount ?? segmentCount ?? VideoPreset.defaultSegmentCount
            )
        } catch {
            throw InputError(file: spec, error.message)
        }
    }

    private static func cbrDurationSeconds(_ text: Substring, spec: String) throws(InputError) -> Double {
        let lowered = text.lowercased()
        let (number, scale): (Substring, Double) =
            if lowered.hasSuffix("ms") { (lowered.dropLast(2), 1000) }
            else if lowered.hasSuffix("s") { (lowered.dropLast(1), 1) }
            else { throw InputError(file: spec, "segment duration '\(InputError.excerpt(text))' needs a unit: s or ms, e.g. @4s or @2500ms") }
        guard let value = Double(number), value.isFinite, value > 0 else {
            throw InputError(file: spec, "segment duration '\(InputError.excerpt(text))' must be a number > 0 with its unit, e.g. @4s")
        }
        return value / scale
    }
}
