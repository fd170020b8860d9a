#!/usr/bin/env bash
# Remakes the DASH fixtures in this folder with ffmpeg's dash muxer (Debian 12: ffmpeg 5.1), from
# 4 s of testsrc at three tiny sizes, a keyframe every second, so every segment lasts 1 s:
#
#   template/     SegmentTemplate with $Number%05d$ and @duration, plus an audio Adaptation Set
#   timeline/     SegmentTemplate with $Time$ and a SegmentTimeline
#   single-file/  one MP4 per level with a global sidx (-single_file 1 -global_sidx 1);
#                 manifest.mpd addresses it with SegmentList mediaRanges (as ffmpeg writes it),
#                 segment-base.mpd with SegmentBase indexRange pointing at the sidx (written here
#                 from the same files: ffmpeg 5.1 does not write SegmentBase, and GPAC's MP4Box is
#                 not packaged in Debian 12).
#
# x264's output differs between builds, so a remake changes the bytes; the tests read whatever
# sizes the files have and compare them with the files themselves.
set -euo pipefail
cd "$(dirname "$0")"
rm -rf template timeline single-file
mkdir template timeline single-file
video=(-f lavfi -i testsrc=size=64x36:rate=5:duration=4)
audio=(-f lavfi -i sine=frequency=440:sample_rate=8000:duration=4)
ladder=(-map 0:v -map 0:v -map 0:v -c:v libx264 -preset veryfast -g 5 -keyint_min 5 -sc_threshold 0
    -s:v:0 32x18 -b:v:0 4k -s:v:1 48x28 -b:v:1 8k -s:v:2 64x36 -b:v:2 16k -bitexact -fflags +bitexact)
dash=(-f dash -seg_duration 1)
ffmpeg -hide_banner -loglevel error "${video[@]}" "${audio[@]}" "${ladder[@]}" -map 1:a -c:a aac -b:a 8k -ac 1 \
    "${dash[@]}" -use_template 1 -use_timeline 0 -adaptation_sets "id=0,streams=v id=1,streams=a" template/manifest.mpd
ffmpeg -hide_banner -loglevel error "${video[@]}" "${ladder[@]}" \
    "${dash[@]}" -use_template 1 -use_timeline 1 -media_seg_name 'seg-$RepresentationID$-$Time$.m4s' \
    -adaptation_sets "id=0,streams=v" timeline/manifest.mpd
ffmpeg -hide_banner -loglevel error "${video[@]}" "${ladder[@]}" \
    "${dash[@]}" -single_file 1 -global_sidx 1 -adaptation_sets "id=0,streams=v" single-file/manifest.mpd
# segment-base.mpd: each SegmentList becomes a SegmentBase whose indexRange is the file's sidx box.
python3 - single-file <<'PY'
import re, struct, sys, os
folder = sys.argv[1]
text = open(os.path.join(folder, "manifest.mpd")).read()
def segment_base(match):
    media = re.search(r"<BaseURL>([^<]+)</BaseURL>", text[:match.start()].rsplit("<Representation", 1)[1]).group(1)
    data = open(os.path.join(folder, media), "rb").read()
    offset = 0
    while offset < len(data):
        size, kind = struct.unpack(">I4s", data[offset:offset + 8])
        if kind == b"sidx":
            break
        offset += size
    else:
        sys.exit(f"{media}: no sidx")
    return (f'<SegmentBase indexRange="{offset}-{offset + size - 1}">\n'
            f'\t\t\t\t\t<Initialization range="0-{offset - 1}" />\n\t\t\t\t</SegmentBase>')
out = re.sub(r"<SegmentList.*?</SegmentList>", segment_base, text, flags=re.S)
open(os.path.join(folder, "segment-base.mpd"), "w").write(out)
PY
