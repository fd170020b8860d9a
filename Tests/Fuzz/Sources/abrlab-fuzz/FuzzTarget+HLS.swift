import ABRLab
import ABRLabFormats

extension FuzzTarget {
    /// HLS master and media playlists.
    static let hlsTargets: [FuzzTarget] = [
        FuzzTarget(name: "hls-master", dictionary: "hls.dict") { bytes in
            do throws(InputError) {
                let master = try HLSMasterPlaylist.parse(text(bytes), file: "master.m3u8")
                FuzzCheck.expect(!master.variants.isEmpty, "a master playlist without variants parsed")
            } catch {
                FuzzCheck.rejection(error, file: "master.m3u8")
            }
        },
        FuzzTarget(name: "hls-media", dictionary: "hls.dict") { bytes in
            do throws(InputError) {
                let playlist = try HLSMediaPlaylist.parse(text(bytes), file: "media.m3u8")
                FuzzCheck.expect(playlist.segments.allSatisfy { $0.durationSeconds.isFinite && $0.durationSeconds >= 0 },
                                 "a segment has duration that is not finite and ≥ 0")
            } catch {
                FuzzCheck.rejection(error, file: "media.m3u8")
            }
        },
    ]
}
