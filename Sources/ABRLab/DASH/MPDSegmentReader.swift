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

    func segments(of representation: MPDManifest.Representation) throws(InputError) -> Segments {
        switch representation.addressing {
        case .list(let list): return try segments(representation, list)
        case .base(let base): return try segments(representation, base)
        case .template(let template): return try segments(representation, template)
        }
    }

    private func segments(_ representation: MPDManifest.Representation, _ list: MPDSegmentAddressing.List) throws(InputError) -> Segments {
        let timed = try timedSegments(list.timing, timescale: list.timescale, startNumber: 1, offsetTicks: 0, line: list.line, lenient: true)
        if case .timeline = list.timing, timed.count != list.entries.count {
            throw error(list.line, representation, "the SegmentTimeline has \(timed.count) segments but the SegmentList \(list.entries.count) SegmentURLs")
        }
        var files: [String: LocalMediaFile] = [:]
        var sizes: [Int] = []
        for (index, entry) in list.entries.enumerated() {
            let location = try resolve(entry.media, in: representation, line: entry.line)
            let media = files[location.display] ?? (try? LocalMediaFile(location.url, name: location.display))
            files[location.display] = media
            // Even a range the MPD states is read only from a file that holds it: the media must be local.
            guard let media else { throw error(entry.line, representation, "segment \(index + 1): no such file '\(location.display)'") }
            guard let range = entry.range else {
                sizes.append(try positive(media.sizeBytes, entry.line, representation, segment: index, media.name))
                continue
            }
            guard let length = range.lengthBytes(inResourceOf: media.sizeBytes) else {
                throw error(
                    entry.line, representation,
                    "segment \(index + 1): mediaRange \(range.text) runs past the end of '\(media.name)' (\(media.sizeBytes) bytes)"
                )
            }
            sizes.append(length)
        }
        let durations = (0..<sizes.count).map { $0 < timed.count ? timed[$0].durationTicks : timed.last?.durationTicks ?? 1 }
        return Segments(sizesBytes: sizes, durationsTicks: durations, timescale: list.timescale)
    }

    private func segments(_ representation: MPDManifest.Representation, _ base: MPDSegmentAddressing.Base) throws(InputError) -> Segments {
        let location = try media(of: representation, line: base.line)
        guard let media = try? LocalMediaFile(location.url, name: location.display) else {
            throw error(base.line, representation, "no such media file '\(location.display)'")
        }
        let indexStart: Int
        let indexBytes: [UInt8]
        if let range = base.indexRange {
            guard let length = range.lengthBytes(inResourceOf: media.sizeBytes) else {
                throw error(base.line, representation, "indexRange \(range.text) runs past the end of '\(media.name)' (\(media.sizeBytes) bytes)")
            }
            indexStart = range.firstByte
            indexBytes = try wrapped(base.line, representation) { () throws(InputError) in try media.read(offset: range.firstByte, count: length) }
        } else {
            let boxes = try wrapped(base.line, representation) { () throws(InputError) in try media.boxes(from: 0) }
            guard let sidx = boxes?.first(where: { $0.type == "sidx" }) else {
                throw error(base.line, representation, "SegmentBase has no indexRange and '\(media.name)' has no top-level sidx box")
            }
            indexStart = sidx.offsetBytes
            indexBytes = try wrapped(base.line, representation) { () throws(InputError) in try media.read(offset: sidx.offsetBytes, count: sidx.sizeBytes) }
        }
        let index: SegmentIndexBox
        switch SegmentIndexBox.parse(indexBytes) {
        case .success(let parsed): index = parsed
        case .failure(let failure): throw error(base.line, representation, "'\(media.name)' at byte \(indexStart): \(failure.message)")
        }
        guard !index.references.isEmpty else { throw error(base.line, representation, "the sidx of '\(media.name)' references no segments") }
        if index.references.contains(where: \.referencesIndex) {
            throw error(base.line, representation, "the sidx of '\(media.name)' points at further sidx boxes; abrlab reads one-level indexes")
        }
        let first = indexStart + index.boxSizeBytes + index.firstOffsetBytes
        let covered = index.references.reduce(first) { $0 + $1.sizeBytes }
        guard covered <= media.sizeBytes else {
            throw error(base.line, representation, "the sidx of '\(media.name)' references bytes \(first)-\(covered - 1), past the file's end at \(media.sizeBytes) bytes")
        }
        // Boxes after the last reference may be an index of their own (mfra) or padding, but
        // media there would be segments the index leaves out.
        let rest = try wrapped(base.line, representation) { () throws(InputError) in try media.boxes(from: covered) }
        guard let rest else {
            throw error(base.line, representation, "the sidx of '\(media.name)' does not cover the file: the bytes after \(covered) are not whole boxes")
        }
        if let uncovered = rest.first(where: { ["moof", "mdat", "styp", "sidx"].contains($0.type) }) {
            throw error(
                base.line, representation,
                "the sidx of '\(media.name)' does not cover the file: it ends at byte \(covered) but a '\(uncovered.type)' box starts at byte \(uncovered.offsetBytes)"
            )
        }
        for (number, reference) in index.references.enumerated() where reference.sizeBytes == 0 {
            throw error(base.line, representation, "segment \(number + 1) of the sidx of '\(media.name)' has 0 bytes")
        }
        return Segments(sizesBytes: index.references.map(\.sizeBytes), durationsTicks: index.references.map(\.durationTicks), timescale: index.timescale)
    }

    private func segments(_ representation: MPDManifest.Representation, _ template: MPDSegmentAddressing.Template) throws(InputError) -> Segments {
        let timed = try timedSegments(
            template.timing, timescale: template.timescale, startNumber: template.startNumber,
            offsetTicks: template.presentationTimeOffsetTicks, line: template.line, lenient: false
        )
        var sizes: [Int] = []
        sizes.reserveCapacity(timed.count)
        for (index, segment) in timed.enumerated() {
            let name = template.media.expand(
                representationID: representation.id, number: segment.number, bandwidth: representation.bandwidthBitsPerSecond, time: segment.startTicks
            )
            let location = try resolve(name, in: representation, line: template.line)
            guard let media = try? LocalMediaFile(location.url, name: location.display) else {
                throw error(template.line, representation, "segment \(index + 1): no such file '\(location.display)'")
            }
            sizes.append(try positive(media.sizeBytes, template.line, representation, segment: index, media.name))
        }
        return Segments(sizesBytes: sizes, durationsTicks: timed.map(\.durationTicks), timescale: template.timescale)
    }

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
        guard size > 0 else { throw error(line, representation, "segment \(segment + 1): '\(name)' is empty") }
        return size
    }

    /// An error reading a media file, said about the MPD line that led to it.
    private func wrapped<T>(_ line: Int, _ representation: MPDManifest.Representation, _ body: () throws(InputError) -> T) throws(InputError) -> T {
        do { return try body() } catch { throw self.error(line, representation, "'\(error.file)': \(error.message)") }
    }

    private func error(_ line: Int, _ representation: MPDManifest.Representation, _ message: String) -> InputError {
        InputError(file: file, line: line, "Representation '\(representation.id)': \(message)")
    }
}
