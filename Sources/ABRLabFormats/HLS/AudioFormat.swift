import ABRLab

/// The backend's audio formats (seed 003), with the names its playlists carry.
///
/// Nominal bitrates: the AAC formats at their seed bitrates; the FLAC ones are variable, so
/// abrlab takes typical values: 16-bit/44.1 kHz stereo PCM is 1411 kbps and FLAC keeps about
/// 70 % of it, about 1000 kbps; 24-bit/96 kHz PCM is 4608 kbps and FLAC keeps about 65 %,
/// about 3000 kbps.
public enum AudioFormat: String, CaseIterable, Sendable {
    case low = "LOW"
    case high = "HIGH"
    case lossless = "LOSSLESS"
    case hiResLossless = "HI_RES_LOSSLESS"

    /// The name in `X-COM-TIDAL-FORMAT` and `Video.formats`.
    public var formatString: String { rawValue }

    public var nominalBitsPerSecond: Int {
        switch self {
        case .low: 128_000
        case .high: 320_000
        case .lossless: 1_000_000
        case .hiResLossless: 3_000_000
        }
    }

    public var codecDescription: String {
        switch self {
        case .low: "AAC, ~128 kbps"
        case .high: "AAC, ~320 kbps"
        case .lossless: "FLAC, 16-bit/44.1 kHz"
        case .hiResLossless: "FLAC, 24-bit/96+ kHz"
        }
    }

    /// The format's ladder rung, labelled with its name.
    public var level: BitrateLevel { BitrateLevel(bitrate: nominalBitsPerSecond, label: formatString) }
}
