import ABRLab

/// What the segment files say against what the MPD promises: an encoder cuts segments only at
/// keyframes, so without a fixed keyframe interval its segments are longer than `@duration` says,
/// and there are fewer files than the MPD counts.
extension MPDSegmentReader {
    /// Why a template's segment file could not be used. A missing file after some that exist,
    /// with none after it, under a count that `@duration` and the Period's length gave, is the
    /// encoder writing fewer, longer segments: said so, with what the MPD promised and the fix.
    func missingSegment(
        _ failure: InputError, at location: MPDLocation, index: Int, timed: [MPDSegmentTiming.Segment],
        _ template: MPDSegmentAddressing.Template, _ representation: MPDManifest.Representation
    ) -> InputError {
        let path = Self.quoted(location.display)
        guard failure.message == "no such file" else { return error(template.line, representation, "segment \(index + 1): \(path) \(failure.message)") }
        let plain = error(template.line, representation, "segment \(index + 1): no such file \(path)")
        guard case .duration(let ticks) = template.timing, index > 0 else { return plain }
        // A file after the gap means one file is lost, not that the encoder wrote fewer.
        for later in Set([index + 1, timed.count - 1]) where later > index && later < timed.count {
            guard let other = try? self.location(of: timed[later], template, representation) else { return plain }
            do throws(InputError) {
                _ = try LocalMediaFile(other.url, name: other.display)
                return plain
            } catch {
                guard error.message == "no such file" else { return plain }
            }
        }
        let nominal = Double(ticks) / Double(template.timescale)
        let total = timed.reduce(0.0) { $0 + Double($1.durationTicks) } / Double(template.timescale)
        var text = "the MPD promises \(timed.count) segments of \(Self.seconds(nominal)) s (\(Self.seconds(total)) s: the Period's length over @duration) "
            + "but the files stop after segment \(index): segment \(index + 1) \(path) is missing"
        if timed.count - 1 > index { text += ", and so is the last, \(timed.count)" }
        if let first = try? self.location(of: timed[0], template, representation), let media = try? LocalMediaFile(first.url, name: first.display),
           let seconds = Self.mediaSeconds(of: media), Self.differ(seconds, nominal) {
            text += "; segment 1 holds \(Self.seconds(seconds)) s of media (its sidx)"
        }
        return error(template.line, representation, text + ". " + Self.keyframeHint(nominal, frameRate: representation.frameRate))
    }

    /// Warns, once per MPD, when segment 1's media lasts other than the MPD says (by its `sidx`,
    /// where it has one): abrlab plays the MPD's durations.
    mutating func compareMediaDuration(
        of media: LocalMediaFile, with segment: MPDSegmentTiming.Segment, _ template: MPDSegmentAddressing.Template,
        _ representation: MPDManifest.Representation
    ) {
        guard !mediaDurationsWarned, let seconds = Self.mediaSeconds(of: media) else { return }
        let stated = Double(segment.durationTicks) / Double(template.timescale)
        guard Self.differ(seconds, stated) else { return }
        mediaDurationsWarned = true
        warn(InputWarning(
            file: file, line: template.line,
            "Representation '\(InputError.excerpt(representation.id))': segment 1 \(Self.quoted(media.name)) holds \(Self.seconds(seconds)) s of media "
                + "(its sidx) but the MPD says \(Self.seconds(stated)) s; abrlab plays the MPD's durations. "
                + Self.keyframeHint(stated, frameRate: representation.frameRate)
        ))
    }

    /// The pointer at the keyframe interval, with the frame count where the MPD gives a frame rate.
    static func keyframeHint(_ seconds: Double, frameRate: Double?) -> String {
        let frames = frameRate.map { "\(NumberText.plain(($0 * seconds).rounded())) frames, \(Self.seconds(seconds)) s × \(Self.seconds($0)) fps" }
            ?? "\(Self.seconds(seconds)) s × the frame rate"
        return "An encoder cuts video segments only at keyframes, so they last a whole number of keyframe intervals: for "
            + "\(Self.seconds(seconds)) s segments set the keyframe interval to \(Self.seconds(seconds)) s (ffmpeg: -g and -keyint_min of \(frames), and -sc_threshold 0)"
    }

    /// Whether two durations differ by more than a tenth: rounding and a frame or two do not.
    private static func differ(_ media: Double, _ stated: Double) -> Bool { abs(media - stated) > 0.1 * stated }

    static func seconds(_ value: Double) -> String { NumberText.plain((value * 1000).rounded() / 1000) }

    /// The seconds of media a segment file indexes in its first top-level `sidx` (ffmpeg writes
    /// one in each segment), looked for among its first few boxes; nil without one.
    static func mediaSeconds(of media: LocalMediaFile) -> Double? {
        var position = 0
        for _ in 0..<8 where position < media.sizeBytes {
            guard let head = try? media.read(offset: position, count: 16) else { return nil }
            var reader = ISOByteReader(head)
            guard let header = ISOBoxHeader.read(&reader, available: UInt64(media.sizeBytes - position)) else { return nil }
            let size = header.sizeBytes.map(Int.init) ?? (media.sizeBytes - position)
            if header.type == "sidx" {
                guard size <= 1 << 20, let bytes = try? media.read(offset: position, count: size),
                      case .success(let index) = SegmentIndexBox.parse(bytes), !index.references.isEmpty else { return nil }
                return index.references.reduce(0.0) { $0 + Double($1.durationTicks) } / Double(index.timescale)
            }
            guard !["moof", "mdat"].contains(header.type) else { return nil }
            position += size
        }
        return nil
    }
}
