import ABRLab

/// An audio ladder of the backend's four formats as a CBR video, so strategies can be tried on
/// format switching (LOW → HI_RES_LOSSLESS) rather than video resolutions.
public enum AudioFormatPreset {
    /// The preset's name, as a video spec.
    public static let name = "audio"
    /// Segment length: 4 s, the default of abrlab's other presets and a common HLS audio choice.
    public static let defaultSegmentDurationSeconds = VideoPreset.defaultSegmentDurationSeconds

    /// LOW, HIGH, LOSSLESS, HI_RES_LOSSLESS at their nominal bitrates, ascending.
    public static let ladder: [BitrateLevel] = AudioFormat.allCases.map(\.level)

    /// The preset as a CBR video whose `formats` are the format names.
    public static func video(
        segmentCount: Int = VideoPreset.defaultSegmentCount,
        segmentDurationSeconds: Double = defaultSegmentDurationSeconds
    ) throws(InputError) -> Video {
        try Video(
            name: name, segmentDurationSeconds: segmentDurationSeconds, ladder: ladder, segmentCount: segmentCount,
            formats: AudioFormat.allCases.map(\.formatString)
        )
    }
}
