import ABRLab

/// Reads the size and duration of every segment of one Representation from local disk: byte
/// ranges from the MPD or the `sidx` box, else the segment files' sizes. Every problem is an
/// `InputError` about the MPD at the line of the element it comes from.
struct MPDSegmentReader {
    /// Segments of one Representation: sizes in bytes and durations in ticks of `timescale`.
    struct Segments: Equatable {
        let sizesBytes: [Int]
        let durationsTicks: [Int]
        let timescale: Int
    }

    let file: String
    let periodSeconds: Double?
    /// The ladder's Representations: with one's segment count, the sizes the video would hold.
    let representationCount: Int
    /// Notes on what was read, such as media whose own durations differ from the MPD's.
    private(set) var warnings: [InputWarning] = []
    /// Media files by path, each opened once however many segments or Representations name it.
    /// Per-segment files (`$Number$`, `$Time$`) are not kept: each is named once.
    private var files: [String: Result<LocalMediaFile, InputError>] = [:]
    /// Whether media durations were compared with the MPD's and found to differ, said once.
    var mediaDurationsWarned = false

    init(file: String, periodSeconds: Double?, representationCount: Int) {
        self.file = file
        self.periodSeconds = periodSeconds
        self.representationCount = representationCount
    }

    mutating func segments(of representation: MPDManifest.Representation) throws(InputError) -> Segments {
        switch representation.addressing {
        case .list(let list): return try segments(representation, list)
        case .base(let base): return try segments(representation, base)
        case .template(let template): return try segments(representation, template)
        }
    }

    private mutating func segments(_ representation: MPDManifest.Representation, _ list: MPDSegmentAddressing.List) throws(InputError) -> Segments {
        try checkCount(list.entries.count, representation, line: list.line)
        let timed = try timedSegments(list.timing, timescale: list.timescale, startNumber: 1, offsetTicks: 0, line: list.line, lenient: true)
        if case .timeline = list.timing, timed.count != list.entries.count {
            throw error(list.line, representation, "the SegmentTimeline has \(timed.count) segments but the SegmentList \(list.entries.count) SegmentURLs")
        }
        var sizes: [Int] = []
        for (index, entry) in list.entries.enumerated() {
            let location = try resolve(entry.media, in: representation, line: entry.line)
            // Even a range the MPD states is read only from a file that holds it: the media must be local.
            let media = try cachedMedia(location, segment: index, line: entry.line, representation)
            guard let range = entry.range else {
                sizes.append(try positive(media.sizeBytes, entry.line, representation, segment: index, media.name))
                continue
            }
            guard let length = range.lengthBytes(inResourceOf: media.sizeBytes) else {
                throw error(
                    entry.line, representation,
                    "segment \(index + 1): mediaRange \(range.text) runs past the end of \(Self.quoted(media.name)) (\(media.sizeBytes) bytes)"
                )
            }
            sizes.append(length)
        }
        let durations = (0..<sizes.count).map { $0 < timed.count ? timed[$0].durationTicks : timed.last?.durationTicks ?? 1 }
        return Segments(sizesBytes: sizes, durationsTicks: durations, timescale: list.timescale)
    }

    private mutating func segments(_ representation: MPDManifest.Representation, _ base: MPDSegmentAddressing.Base) throws(InputError) -> Segments {
        let location = try media(of: representation, line: base.line)
        let media = try cachedMedia(location, segment: nil, line: base.line, representation)
        let indexStart: Int
        let indexBytes: [UInt8]
        if let range = base.indexRange {
            guard let length = range.lengthBytes(inResourceOf: media.sizeBytes) else {
                throw error(base.line, representation, "indexRange \(range.text) runs past the end of \(Self.quoted(media.name)) (\(media.sizeBytes) bytes)")
            }
            indexStart = range.firstByte
            indexBytes = try wrapped(base.line, representation) { () throws(InputError) in try media.read(offset: range.firstByte, count: length) }
        } else {
            let boxes = try wrapped(base.line, representation) { () throws(InputError) in try media.boxes(from: 0) }
            guard let sidx = boxes?.first(where: { $0.type == "sidx" }) else {
                throw error(base.line, representation, "SegmentBase has no indexRange and \(Self.quoted(media.name)) has no top-level sidx box")
            }
            indexStart = sidx.offsetBytes
            indexBytes = try wrapped(base.line, representation) { () throws(InputError) in try media.read(offset: sidx.offsetBytes, count: sidx.sizeBytes) }
        }
        let index: SegmentIndexBox
        switch SegmentIndexBox.parse(indexBytes) {
        case .success(let parsed): index = parsed
        case .failure(let failure): throw error(base.line, representation, "\(Self.quoted(media.name)) at byte \(indexStart): \(failure.message)")
        }
        guard !index.references.isEmpty else { throw error(base.line, representation, "the sidx of \(Self.quoted(media.name)) references no segments") }
        try checkCount(index.references.count, representation, line: base.line)
        if index.references.contains(where: \.referencesIndex) {
            throw error(base.line, representation, "the sidx of \(Self.quoted(media.name)) points at further sidx boxes; abrlab reads one-level indexes")
        }
        let first = indexStart + index.boxSizeBytes + index.firstOffsetBytes
        let covered = index.references.reduce(first) { $0 + $1.sizeBytes }
        guard covered <= media.sizeBytes else {
            throw error(base.line, representation, "the sidx of \(Self.quoted(media.name)) references bytes \(first)-\(covered - 1), past the file's end at \(media.sizeBytes) bytes")
        }
        // Boxes after the last reference may be an index of their own (mfra) or padding, but
        // media there would be segments the index leaves out.
        let rest = try wrapped(base.line, representation) { () throws(InputError) in try media.boxes(from: covered) }
        guard let rest else {
            throw error(base.line, representation, "the sidx of \(Self.quoted(media.name)) does not cover the file: the bytes after \(covered) are not whole boxes")
        }
        if let uncovered = rest.first(where: { ["moof", "mdat", "styp", "sidx"].contains($0.type) }) {
            throw error(
                base.line, representation,
                "the sidx of \(Self.quoted(media.name)) does not cover the file: it ends at byte \(covered) but a '\(uncovered.type)' box starts at byte \(uncovered.offsetBytes)"
            )
        }
        for (number, reference) in index.references.enumerated() where reference.sizeBytes == 0 {
            throw error(base.line, representation, "segment \(number + 1) of the sidx of \(Self.quoted(media.name)) has 0 bytes")
        }
        return Segments(sizesBytes: index.references.map(\.sizeBytes), durationsTicks: index.references.map(\.durationTicks), timescale: index.timescale)
    }

    private mutating func segments(_ representation: MPDManifest.Representation, _ template: MPDSegmentAddressing.Template) throws(InputError) -> Segments {
        let timed = try timedSegments(
            template.timing, timescale: template.timescale, startNumber: template.startNumber,
            offsetTicks: template.presentationTimeOffsetTicks, line: template.line, lenient: false
        )
        // Before a file is named: a short MPD can promise more segments than a video may hold.
        try checkCount(timed.count, representation, line: template.line)
        let durations = timed.map(\.durationTicks)
        // Without $Number$ or $Time$ every segment names one file, which is read once.
        guard template.media.uses(.number) || template.media.uses(.time) else {
            let location = try self.location(of: timed[0], template, representation)
            let media = try cachedMedia(location, segment: 0, line: template.line, representation)
            let size = try positive(media.sizeBytes, template.line, representation, segment: 0, media.name)
            return Segments(sizesBytes: Array(repeating: size, count: timed.count), durationsTicks: durations, timescale: template.timescale)
        }
        var sizes: [Int] = []
        sizes.reserveCapacity(timed.count)
        for (index, segment) in timed.enumerated() {
            let location = try self.location(of: segment, template, representation)
            let media: LocalMediaFile
            do { media = try LocalMediaFile(location.url, name: location.display) } catch {
                throw missingSegment(error, at: location, index: index, timed: timed, template, representation)
            }
            if index == 0 { compareMediaDuration(of: media, with: segment, template, representation) }
            sizes.append(try positive(media.sizeBytes, template.line, representation, segment: index, media.name))
        }
        return Segments(sizesBytes: sizes, durationsTicks: durations, timescale: template.timescale)
    }

    /// Where the template puts `segment`'s file.
    func location(
        of segment: MPDSegmentTiming.Segment, _ template: MPDSegmentAddressing.Template, _ representation: MPDManifest.Representation
    ) throws(InputError) -> MPDLocation {
        let name = template.media.expand(
            representationID: representation.id, number: segment.number, bandwidth: representation.bandwidthBitsPerSecond, time: segment.startTicks
        )
        return try resolve(name, in: representation, line: template.line)
    }

    /// The media file at `location`, opened once for all who name it; a missing one is "no such
    /// file" and a FIFO or device is said to be one, about `segment` (nil: the Representation's file).
    private mutating func cachedMedia(
        _ location: MPDLocation, segment: Int?, line: Int, _ representation: MPDManifest.Representation
    ) throws(InputError) -> LocalMediaFile {
        let key = location.url.path
        let result = files[key] ?? Result { () throws(InputError) in try LocalMediaFile(location.url, name: location.display) }
        files[key] = result
        switch result {
        case .success(let media): return media
        case .failure(let failure):
            let what = segment.map { "segment \($0 + 1): " } ?? ""
            let path = Self.quoted(location.display)
            if failure.message == "no such file" {
                throw error(line, representation, segment == nil ? "no such media file \(path)" : "\(what)no such file \(path)")
            }
            throw error(line, representation, "\(what)\(path) \(failure.message)")
        }
    }

    /// A path as a message quotes it, in quotes and at most 240 characters.
    static func quoted(_ path: String) -> String { "'" + InputError.excerpt(path, limit: 240) + "'" }

    /// The timing's segments; `lenient` (a SegmentList, whose URLs give the count) lets a
    /// nominal duration stand without a Period length.
    private func timedSegments(
        _ timing: MPDSegmentTiming, timescale: Int, startNumber: Int, offsetTicks: Int, line: Int, lenient: Bool
    ) throws(InputError) -> [MPDSegmentTiming.Segment] {
        if lenient, case .duration(let ticks) = timing, periodSeconds == nil {
            return [MPDSegmentTiming.Segment(number: startNumber, startTicks: offsetTicks, durationTicks: ticks)]
        }
        return try timing.segments(
            timescale: timescale, startNumber: startNumber, presentationTimeOffsetTicks: offsetTicks, periodSeconds: periodSeconds,
            file: file, line: line
        )
    }

    private func resolve(_ reference: String?, in representation: MPDManifest.Representation, line: Int) throws(InputError) -> MPDLocation {
        guard let reference, !reference.isEmpty else { return try media(of: representation, line: line) }
        switch representation.location.resolving(reference) {
        case .success(let location): return location
        case .failure(let failure): throw error(line, representation, failure.message)
        }
    }

    /// The file the Representation's BaseURLs name; without any, they name the MPD itself.
    private func media(of representation: MPDManifest.Representation, line: Int) throws(InputError) -> MPDLocation {
        guard representation.location.display != file, !representation.location.isFolder else {
            throw error(line, representation, "no BaseURL names its media file")
        }
        return representation.location
    }

    private func positive(_ size: Int, _ line: Int, _ representation: MPDManifest.Representation, segment: Int, _ name: String) throws(InputError) -> Int {
        guard size > 0 else { throw error(line, representation, "segment \(segment + 1): \(Self.quoted(name)) is empty") }
        return size
    }

    /// An error reading a media file, said about the MPD line that led to it.
    private func wrapped<T>(_ line: Int, _ representation: MPDManifest.Representation, _ body: () throws(InputError) -> T) throws(InputError) -> T {
        do { return try body() } catch { throw self.error(line, representation, "\(Self.quoted(error.file)): \(error.message)") }
    }

    func error(_ line: Int, _ representation: MPDManifest.Representation, _ message: String) -> InputError {
        InputError(file: file, line: line, "Representation '\(InputError.excerpt(representation.id))': \(message)")
    }

    /// Refuses a Representation of more segments than a video of this ladder may hold, from the
    /// count alone, before any of its files is read.
    private func checkCount(_ count: Int, _ representation: MPDManifest.Representation, line: Int) throws(InputError) {
        guard count > Video.maximumSizeCount / max(representationCount, 1) else { return }
        throw error(
            line, representation,
            "\(count) segments × \(representationCount) Representations is over the \(Video.maximumSizeCount) segment sizes a video may hold"
        )
    }

    mutating func warn(_ warning: InputWarning) { warnings.append(warning) }
}
