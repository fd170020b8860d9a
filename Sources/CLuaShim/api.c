/* The Lua API's tables, declared once: every field a script sees, with its type, unit, when it
   is nil, whether it is an index, its line in Strategies/abrlab.d.lua, and where the shim reads
   it. fill.c fills the tables from these rows; tests hold docs/lua-api.md, docs/qoe.md and
   abrlab.d.lua to them. Rows are in the docs' order. */
#include "internal.h"

#include <stddef.h>

const char *const abrl_quality_names[5] = {"offline", "poor", "fair", "good", "excellent"};
static const char *const throughput_methods[2] = {"segment", "chunk"};
static const char *const bola_phases[3] = {"startup", "steady", "one_bitrate"};

#define SETTING(member) ABRL_GROUP_SETTING, offsetof(abrl_setting, member)
#define DECISION(member) ABRL_GROUP_DECISION, offsetof(abrl_decision, member)
#define LIVE(member) ABRL_GROUP_LIVE, offsetof(abrl_live, member)
#define DASHJS(member) ABRL_GROUP_DASHJS, offsetof(abrl_dashjs, member)
#define DOWNLOAD(member) ABRL_GROUP_DOWNLOAD, offsetof(abrl_download, member)
#define CHUNK(member) ABRL_GROUP_CHUNK, offsetof(abrl_chunk, member)
#define PROGRESS(member) ABRL_GROUP_PROGRESS, offsetof(abrl_progress, member)
#define WAIT(member) ABRL_GROUP_WAIT, offsetof(abrl_wait, member)
#define PLAYBACK(member) ABRL_GROUP_PLAYBACK, offsetof(abrl_playback, member)
#define QOE_SEGMENT(member) ABRL_GROUP_QOE_SEGMENT, offsetof(abrl_qoe_segment, member)
#define QOE_SESSION(member) ABRL_GROUP_QOE_SESSION, offsetof(abrl_qoe_session, member)

/* A field: {name, type, LuaCATS type, unit, when nil, 1-based, doc}, then its record and member,
   how it is read, and its `extra` (a length or count member, or the number of names). */
#define FIELD(name, type, annotation, unit, nil_when, one_based, doc, source, read, extra) \
    {{name, ABRL_TYPE_##type, annotation, unit, ABRL_NIL_##nil_when, one_based, doc}, source, ABRL_READ_##read, extra, NULL, 0}
#define NAMED(name, annotation, doc, source, names, count) \
    {{name, ABRL_TYPE_STRING, annotation, "", ABRL_NIL_NEVER, 0, doc}, source, ABRL_READ_NAME, count, names, 0}
#define SESSION_ONLY(name, type, annotation, unit, doc, source, read, extra) \
    {{name, ABRL_TYPE_##type, annotation, unit, ABRL_NIL_NEVER, 0, doc}, source, ABRL_READ_##read, extra, NULL, 1}

/* The ctx fields that depend on the session only are set when its ctx is made, the others
   before every decision, the live ones on the live profile only. */
static const abrl_field ctx_fields[] = {
    FIELD("segment_index", INTEGER, NULL, "", NEVER, 1, "1-based index of the segment being chosen.",
          DECISION(segment_index), INDEX, 0),
    FIELD("segment_count", INTEGER, NULL, "", NEVER, 0, "Segments this session plays.", SETTING(info.segment_count), INTEGER, 0),
    FIELD("segment_duration_s", NUMBER, NULL, "s", NEVER, 0, "Duration of one segment, seconds.",
          SETTING(info.segment_duration_s), NUMBER, 0),
    FIELD("levels_kbps", NUMBERS, NULL, "kbps", NEVER, 0, "Ladder bitrates, kilobits per second, lowest first.",
          SETTING(info.levels_kbps), NUMBERS, offsetof(abrl_setting, info.level_count)),
    FIELD("level_count", INTEGER, NULL, "", NEVER, 0, "Number of levels.", SETTING(info.level_count), INTEGER, 0),
    FIELD("last_level", INTEGER, NULL, "", UNSET, 1, "1-based level of the previous segment; nil before the first download.",
          DECISION(last_level), INDEX, 0),
    FIELD("buffer_s", NUMBER, NULL, "s", NEVER, 0, "Buffer after the previous download (and any full-buffer wait), seconds.",
          DECISION(buffer_s), NUMBER, 0),
    FIELD("rebuffer_s", NUMBER, NULL, "s", NEVER, 0, "Stall time so far, seconds (startup included when the profile counts it).",
          DECISION(rebuffer_s), NUMBER, 0),
    FIELD("stall_count", INTEGER, NULL, "", NEVER, 0, "Mid-playback stalls so far.", DECISION(stall_count), INTEGER, 0),
    FIELD("elapsed_s", NUMBER, NULL, "s", NEVER, 0, "Simulated time since the session started, seconds.",
          DECISION(elapsed_s), NUMBER, 0),
    FIELD("estimate_kbps", NUMBER, NULL, "kbps", NEVER, 0, "The seed estimator's bandwidth estimate, kbps; 0 before any download.",
          DECISION(estimate_kbps), NUMBER, 0),
    FIELD("throughput_estimate_kbps", NUMBER, NULL, "kbps", UNSET, 0,
          "The profile's throughput estimate (Sabre's EWMA by default), kbps; nil before the first completed download.",
          DECISION(throughput_estimate_kbps), NUMBER, 0),
    FIELD("latency_estimate_s", NUMBER, NULL, "s", UNSET, 0,
          "The profile's latency estimate, seconds; nil before the first completed download.",
          DECISION(latency_estimate_s), NUMBER, 0),
    NAMED("network_quality", "abrlab.NetworkQuality", "The estimate classified by the seed's thresholds.",
          DECISION(network_quality), abrl_quality_names, 5),
    FIELD("max_buffer_s", NUMBER, NULL, "s", NEVER, 0, "Buffer the player aims for, seconds.", SETTING(info.max_buffer_s), NUMBER, 0),
    FIELD("throughputs_kbps", NUMBERS, NULL, "kbps", NEVER, 0, "Throughput of every earlier download, kbps, oldest first.",
          SETTING(throughputs), VALUE, 0),
    FIELD("download_times_s", NUMBERS, NULL, "s", NEVER, 0, "Duration of every earlier download (latency included), seconds.",
          SETTING(download_times), VALUE, 0),
    FIELD("sizes_bytes", INTEGERS, NULL, "bytes", NEVER, 0, "Size of every earlier download, bytes.", SETTING(sizes), VALUE, 0),
    FIELD("size_bytes", FUNCTION, NULL, "bytes", NEVER, 0,
          "Size in bytes of `segment` at `level`, both 1-based and absolute; 0 outside the video. "
          "Callable as `ctx.size_bytes(segment, level)` or `ctx:size_bytes(segment, level)`.",
          SETTING(size_bytes), VALUE, 0),
    FIELD("quality", FUNCTION, NULL, "", NEVER, 0,
          "Per-segment quality of `segment` at `level` (both 1-based and absolute), from the video "
          "manifest's `segment_vmaf` and `segment_ssim`; each is nil when the video has no such scores or "
          "the indices fall outside it. Callable as `ctx.quality(segment, level)` or `ctx:quality(segment, level)`.",
          SETTING(quality), VALUE, 0),
    FIELD("live", BOOLEAN, NULL, "", NEVER, 0, "Whether the session is live (`--profile live`).", SETTING(live), BOOLEAN, 0),
    NAMED("throughput_method", "\"segment\"|\"chunk\"",
          "How throughput samples are measured: over the whole transfer, or (live) dash.js's per-chunk method "
          "that leaves out time spent waiting for the encoder.",
          SETTING(live), throughput_methods, 2),
    FIELD("live_latency_s", NUMBER, NULL, "s", OFF_LIVE, 0, "Live latency now (live edge − playhead), seconds; nil off live.",
          LIVE(latency_s), NUMBER, 0),
    FIELD("target_latency_s", NUMBER, NULL, "s", OFF_LIVE, 0, "Latency the player aims for, seconds; nil off live.",
          LIVE(target_latency_s), NUMBER, 0),
    FIELD("playback_rate", NUMBER, NULL, "", OFF_LIVE, 0, "Playback rate in force (1 = real time); nil off live.",
          LIVE(playback_rate), NUMBER, 0),
    FIELD("live_edge_s", NUMBER, NULL, "s", OFF_LIVE, 0, "Media time of the end of the newest finished chunk, seconds; nil off live.",
          LIVE(live_edge_s), NUMBER, 0),
    FIELD("playhead_s", NUMBER, NULL, "s", OFF_LIVE, 0, "Media time the player is at, seconds; nil off live.",
          LIVE(playhead_s), NUMBER, 0),
    FIELD("chunk_duration_s", NUMBER, NULL, "s", OFF_LIVE, 0, "Duration of one chunk, seconds; nil off live.",
          LIVE(chunk_duration_s), NUMBER, 0),
    FIELD("last_chunks", TABLES, "abrlab.Chunk[]", "", OFF_LIVE, 0,
          "Chunks of the latest delivered download, in order (empty before the first); nil off live.",
          LIVE(chunks), CHUNKS, offsetof(abrl_live, chunk_count)),
    FIELD("dashjs_level", INTEGER, NULL, "", UNSET, 1,
          "dash.js 5.1.1's choice for this segment (its default rules' lowest proposal, else the level playing), 1-based; "
          "nil off the dashjs profile.",
          DASHJS(level), INDEX, 0),
    FIELD("dashjs_throughput_kbps", NUMBER, NULL, "kbps", UNSET, 0,
          "dash.js's average throughput (EWMA of its samples, rounded), kbps; nil before its first sample and off the dashjs profile.",
          DASHJS(throughput_kbps), NUMBER, 0),
    FIELD("dashjs_safe_throughput_kbps", NUMBER, NULL, "kbps", UNSET, 0,
          "dash.js's safe average throughput (the average × 0.9), kbps; nil when dashjs_throughput_kbps is.",
          DASHJS(safe_throughput_kbps), NUMBER, 0),
    FIELD("dashjs_latest_throughput_kbps", NUMBER, NULL, "kbps", UNSET, 0,
          "dash.js's newest throughput sample, kbps; nil when dashjs_throughput_kbps is.",
          DASHJS(latest_throughput_kbps), NUMBER, 0),
    FIELD("dashjs_buffer_s", NUMBER, NULL, "s", UNSET, 0,
          "The buffer level dash.js's rules read (the last BufferLevel metric, to the ms), seconds; nil off the dashjs profile.",
          DASHJS(buffer_s), NUMBER, 0),
    FIELD("dashjs_bola_active", BOOLEAN, NULL, "", UNSET, 0,
          "Whether BOLA rather than ThroughputRule decides (on from 18 s of buffer, off below 9 s); nil off the dashjs profile.",
          DASHJS(bola_active), BOOLEAN, 0),
    FIELD("dashjs_throughput_rule_level", INTEGER, NULL, "", UNSET, 1,
          "ThroughputRule's proposal, 1-based, probed even while BOLA decides; nil when it proposes nothing.",
          DASHJS(throughput_rule_level), INDEX, 0),
    FIELD("dashjs_bola_level", INTEGER, NULL, "", UNSET, 1,
          "BOLA's proposal, 1-based; nil while ThroughputRule decides or when BOLA proposes nothing.",
          DASHJS(bola_level), INDEX, 0),
    FIELD("dashjs_insufficient_buffer_level", INTEGER, NULL, "", UNSET, 1,
          "InsufficientBufferRule's proposal, 1-based; nil when it proposes nothing.",
          DASHJS(insufficient_buffer_level), INDEX, 0),
    FIELD("dashjs_switch_history_level", INTEGER, NULL, "", UNSET, 1,
          "SwitchHistoryRule's proposal, 1-based; nil when it proposes nothing.",
          DASHJS(switch_history_level), INDEX, 0),
    {{"dashjs_bola_phase", ABRL_TYPE_STRING, "\"startup\"|\"steady\"|\"one_bitrate\"", "", ABRL_NIL_UNSET, 0,
      "BOLA's phase; nil before BOLA's first call and off the dashjs profile."},
     DASHJS(bola_phase), ABRL_READ_NAME, 3, bola_phases, 0},
    FIELD("dashjs_bola_placeholder_s", NUMBER, NULL, "s", UNSET, 0,
          "BOLA-O's placeholder buffer after this decision, seconds; nil before BOLA's first call and off the dashjs profile.",
          DASHJS(bola_placeholder_s), NUMBER, 0),
    FIELD("dashjs_bola_delay_s", NUMBER, NULL, "s", UNSET, 0,
          "The delay BOLA asks for before the request (0 for none), seconds; nil off the dashjs profile.",
          DASHJS(bola_delay_s), NUMBER, 0),
    FIELD("mpc_search", FUNCTION, NULL, "", NEVER, 0,
          "RobustMPC's look-ahead search, run natively by abrlab's MPCSearch (the search robust_mpc-native "
          "runs); call as `ctx:mpc_search(...)`. Scores every level sequence over min(horizon, segments "
          "left) segments starting at segment_index + lookahead_offset by Σ bitrate Mbps − "
          "rebuffer_penalty × rebuffering s − smoothness_penalty × Σ |Δ bitrate Mbps|, with download "
          "time = size MB / bandwidth. Needs `last_level`; costs 32 budget instructions per search node.",
          SETTING(mpc_search), VALUE, 0),
};

static const abrl_field report_fields[] = {
    FIELD("segment_index", INTEGER, NULL, "", NEVER, 1, "1-based index of the downloaded segment.", DOWNLOAD(segment_index), INDEX, 0),
    FIELD("level", INTEGER, NULL, "", NEVER, 1, "1-based level it was downloaded at.", DOWNLOAD(level), INDEX, 0),
    FIELD("size_bytes", INTEGER, NULL, "bytes", NEVER, 0, "Its size, bytes.", DOWNLOAD(size_bytes), INTEGER, 0),
    FIELD("download_time_s", NUMBER, NULL, "s", NEVER, 0, "From request to last byte (latency included), seconds.",
          DOWNLOAD(download_time_s), NUMBER, 0),
    FIELD("throughput_kbps", NUMBER, NULL, "kbps", NEVER, 0,
          "size_bytes × 8 / download_time_s / 1000; on live the chunk-based measure (see ctx.throughput_method).",
          DOWNLOAD(throughput_kbps), NUMBER, 0),
    FIELD("rebuffer_s", NUMBER, NULL, "s", NEVER, 0, "Stall this download caused, seconds.", DOWNLOAD(rebuffer_s), NUMBER, 0),
    FIELD("buffer_s", NUMBER, NULL, "s", NEVER, 0, "Buffer after the segment arrived (and after any full-buffer wait), seconds.",
          DOWNLOAD(buffer_s), NUMBER, 0),
    FIELD("wait_s", NUMBER, NULL, "s", NEVER, 0,
          "Time the player then waited because its buffer was full, seconds (level-buffer profiles).", DOWNLOAD(wait_s), NUMBER, 0),
    FIELD("latency_s", NUMBER, NULL, "s", NEVER, 0, "Time from the request to the first byte, seconds.", DOWNLOAD(latency_s), NUMBER, 0),
    FIELD("received_bytes", NUMBER, NULL, "bytes", NEVER, 0, "Bytes that arrived (size_bytes unless abandoned).",
          DOWNLOAD(received_bytes), NUMBER, 0),
    FIELD("abandoned", BOOLEAN, NULL, "", NEVER, 0, "Whether check_abandon stopped the download.", DOWNLOAD(abandoned), BOOLEAN, 0),
    FIELD("abandoned_to_level", INTEGER, NULL, "", UNSET, 1, "The 1-based level check_abandon asked for; nil when not abandoned.",
          DOWNLOAD(abandoned_to_level), INDEX, 0),
    FIELD("replacement", BOOLEAN, NULL, "", NEVER, 0, "Whether the request replaced a buffered segment.",
          DOWNLOAD(replacement), BOOLEAN, 0),
    FIELD("chunks", TABLES, "abrlab.Chunk[]", "", UNSET, 0, "Live: the segment's chunks as they arrived; nil off live.",
          DOWNLOAD(chunks), CHUNKS, offsetof(abrl_download, chunk_count)),
};

static const abrl_field chunk_fields[] = {
    FIELD("size_bytes", INTEGER, NULL, "bytes", NEVER, 0, "The chunk's size, bytes.", CHUNK(size_bytes), INTEGER, 0),
    FIELD("available_s", NUMBER, NULL, "s", NEVER, 0, "Session time the encoder finished it, seconds.", CHUNK(available_s), NUMBER, 0),
    FIELD("first_byte_s", NUMBER, NULL, "s", NEVER, 0, "Session time its first byte arrived, seconds.", CHUNK(first_byte_s), NUMBER, 0),
    FIELD("arrival_s", NUMBER, NULL, "s", NEVER, 0, "Session time its last byte arrived, seconds.", CHUNK(arrival_s), NUMBER, 0),
};

static const abrl_field progress_fields[] = {
    FIELD("segment_index", INTEGER, NULL, "", NEVER, 1, "The segment being downloaded, 1-based.", PROGRESS(segment_index), INDEX, 0),
    FIELD("level", INTEGER, NULL, "", NEVER, 1, "Its 1-based level.", PROGRESS(level), INDEX, 0),
    FIELD("size_bytes", NUMBER, NULL, "bytes", NEVER, 0, "The whole segment's size, bytes (fractional when the video gives bits).",
          PROGRESS(size_bytes), NUMBER, 0),
    FIELD("received_bytes", NUMBER, NULL, "bytes", NEVER, 0, "Bytes received so far.", PROGRESS(received_bytes), NUMBER, 0),
    FIELD("elapsed_s", NUMBER, NULL, "s", NEVER, 0, "Time since the request, latency included, seconds.", PROGRESS(elapsed_s), NUMBER, 0),
    FIELD("ttfb_s", NUMBER, NULL, "s", NEVER, 0, "Time from the request to the first byte, seconds.", PROGRESS(ttfb_s), NUMBER, 0),
    FIELD("buffer_s", NUMBER, NULL, "s", NEVER, 0, "Buffer when the request went out minus elapsed_s, at least 0, seconds.",
          PROGRESS(buffer_s), NUMBER, 0),
};

static const abrl_field wait_fields[] = {
    FIELD("wait_s", NUMBER, NULL, "s", NEVER, 0, "How long the player waited, seconds.", WAIT(wait_s), NUMBER, 0),
    FIELD("buffer_s", NUMBER, NULL, "s", NEVER, 0, "Buffer after the wait, seconds.", WAIT(buffer_s), NUMBER, 0),
};

static const abrl_field playback_fields[] = {
    FIELD("now_s", NUMBER, NULL, "s", NEVER, 0, "Session time of the update, seconds.", PLAYBACK(now_s), NUMBER, 0),
    FIELD("buffer_s", NUMBER, NULL, "s", NEVER, 0, "Media buffered ahead of the playhead, seconds.", PLAYBACK(buffer_s), NUMBER, 0),
    FIELD("live_latency_s", NUMBER, NULL, "s", NEVER, 0, "Live edge − playhead, seconds.", PLAYBACK(live_latency_s), NUMBER, 0),
    FIELD("target_latency_s", NUMBER, NULL, "s", NEVER, 0, "The latency the player aims for, seconds.",
          PLAYBACK(target_latency_s), NUMBER, 0),
    FIELD("playback_rate", NUMBER, NULL, "", NEVER, 0, "The rate in force (1 = real time).", PLAYBACK(playback_rate), NUMBER, 0),
    FIELD("playhead_s", NUMBER, NULL, "s", NEVER, 0, "Media time of the playhead, seconds.", PLAYBACK(playhead_s), NUMBER, 0),
    FIELD("live_edge_s", NUMBER, NULL, "s", NEVER, 0, "Media time of the end of the newest chunk the encoder has finished, seconds.",
          PLAYBACK(live_edge_s), NUMBER, 0),
    FIELD("segment_index", INTEGER, NULL, "", NEVER, 1, "The segment under way, 1-based.", PLAYBACK(segment_index), INDEX, 0),
    FIELD("chunks_arrived", INTEGER, NULL, "", NEVER, 0, "Its chunks arrived so far.", PLAYBACK(chunks_arrived), INTEGER, 0),
    FIELD("stalled", BOOLEAN, NULL, "", NEVER, 0, "Whether the buffer ran empty and no chunk has arrived since.",
          PLAYBACK(stalled), BOOLEAN, 0),
};

/* setup(session); check(video) sees the same table without a session's own fields. */
static const abrl_field session_fields[] = {
    FIELD("segment_count", INTEGER, NULL, "", NEVER, 0, "Segments a session plays.", SETTING(info.segment_count), INTEGER, 0),
    FIELD("segment_duration_s", NUMBER, NULL, "s", NEVER, 0, "Duration of one segment, seconds.",
          SETTING(info.segment_duration_s), NUMBER, 0),
    FIELD("levels_kbps", NUMBERS, NULL, "kbps", NEVER, 0, "Ladder bitrates, kbps, lowest first.",
          SETTING(info.levels_kbps), NUMBERS, offsetof(abrl_setting, info.level_count)),
    FIELD("level_count", INTEGER, NULL, "", NEVER, 0, "Number of levels.", SETTING(info.level_count), INTEGER, 0),
    SESSION_ONLY("trace", STRING, NULL, "", "Name of the network trace.",
                 SETTING(info.trace), STRING, offsetof(abrl_setting, info.trace_length)),
    FIELD("profile", STRING, NULL, "", NEVER, 0, "Name of the emulation profile.",
          SETTING(info.profile), STRING, offsetof(abrl_setting, info.profile_length)),
    SESSION_ONLY("seed", INTEGER, NULL, "",
                 "The session seed (64-bit; seeds above 2^63 - 1 appear negative); `math.random` is already seeded with it.",
                 SETTING(info.seed), INTEGER, 0),
    FIELD("max_buffer_s", NUMBER, NULL, "s", NEVER, 0, "Buffer the player aims for, seconds.", SETTING(info.max_buffer_s), NUMBER, 0),
    FIELD("params", TABLE, "table<string, abrlab.ParamValue>", "", NEVER, 0,
          "The effective params: the same table as the script's `params`.", SETTING(params), VALUE, 0),
    FIELD("live", BOOLEAN, NULL, "", NEVER, 0, "Whether the run's sessions are live.", SETTING(live), BOOLEAN, 0),
    FIELD("target_latency_s", NUMBER, NULL, "s", UNSET, 0, "Live: the target latency, seconds; nil off live.",
          SETTING(info.target_latency_s), NUMBER, 0),
    FIELD("chunk_duration_s", NUMBER, NULL, "s", UNSET, 0, "Live: duration of one chunk, seconds; nil off live.",
          SETTING(info.chunk_duration_s), NUMBER, 0),
};

static const abrl_field qoe_segment_fields[] = {
    FIELD("index", INTEGER, NULL, "", NEVER, 1, "The segment, 1-based.", QOE_SEGMENT(index), INDEX, 0),
    FIELD("level", INTEGER, NULL, "", NEVER, 1, "Its level, 1-based.", QOE_SEGMENT(level), INDEX, 0),
    FIELD("previous_level", INTEGER, NULL, "", UNSET, 1, "The previous segment's level, 1-based; nil for the first segment.",
          QOE_SEGMENT(previous_level), INDEX, 0),
    FIELD("bitrate_kbps", NUMBER, NULL, "kbps", NEVER, 0, "Its level's bitrate, kbps.", QOE_SEGMENT(bitrate_kbps), NUMBER, 0),
    FIELD("previous_bitrate_kbps", NUMBER, NULL, "kbps", UNSET, 0, "The previous segment's bitrate, kbps; nil for the first segment.",
          QOE_SEGMENT(previous_bitrate_kbps), NUMBER, 0),
    FIELD("size_bytes", INTEGER, NULL, "bytes", NEVER, 0, "Its size, bytes.", QOE_SEGMENT(size_bytes), INTEGER, 0),
    FIELD("duration_s", NUMBER, NULL, "s", NEVER, 0, "Its duration, seconds.", QOE_SEGMENT(duration_s), NUMBER, 0),
    FIELD("rebuffer_s", NUMBER, NULL, "s", NEVER, 0,
          "Stall its download caused, seconds (for the first segment, the startup delay when the profile counts it as rebuffering).",
          QOE_SEGMENT(rebuffer_s), NUMBER, 0),
    FIELD("download_time_s", NUMBER, NULL, "s", NEVER, 0, "Request latency plus transfer time, seconds.",
          QOE_SEGMENT(download_time_s), NUMBER, 0),
    FIELD("throughput_kbps", NUMBER, NULL, "kbps", NEVER, 0, "size_bytes × 8 / download_time_s / 1000.",
          QOE_SEGMENT(throughput_kbps), NUMBER, 0),
    FIELD("buffer_before_s", NUMBER, NULL, "s", NEVER, 0, "Buffer when the request went out, seconds.",
          QOE_SEGMENT(buffer_before_s), NUMBER, 0),
    FIELD("buffer_after_s", NUMBER, NULL, "s", NEVER, 0, "Buffer after the segment arrived and any full-buffer wait, seconds.",
          QOE_SEGMENT(buffer_after_s), NUMBER, 0),
    FIELD("wait_s", NUMBER, NULL, "s", NEVER, 0, "Time waited afterwards because the buffer was full, seconds.",
          QOE_SEGMENT(wait_s), NUMBER, 0),
    FIELD("vmaf", NUMBER, NULL, "", UNSET, 0, "Its VMAF (0–100) from the manifest's segment_vmaf; nil when the video has none.",
          QOE_SEGMENT(vmaf), NUMBER, 0),
    FIELD("previous_vmaf", NUMBER, NULL, "", UNSET, 0, "The previous segment's VMAF; nil for the first segment or without VMAF.",
          QOE_SEGMENT(previous_vmaf), NUMBER, 0),
    FIELD("ssim", NUMBER, NULL, "", UNSET, 0, "Its SSIM index (at most 1) from segment_ssim; nil when the video has none.",
          QOE_SEGMENT(ssim), NUMBER, 0),
    FIELD("previous_ssim", NUMBER, NULL, "", UNSET, 0, "The previous segment's SSIM; nil for the first segment or without SSIM.",
          QOE_SEGMENT(previous_ssim), NUMBER, 0),
};

static const abrl_field qoe_session_fields[] = {
    FIELD("segment_count", INTEGER, NULL, "", NEVER, 0, "Segments the session played.", QOE_SESSION(segment_count), INTEGER, 0),
    FIELD("segment_duration_s", NUMBER, NULL, "s", NEVER, 0, "Duration of one segment, seconds.",
          QOE_SESSION(segment_duration_s), NUMBER, 0),
    FIELD("level_count", INTEGER, NULL, "", NEVER, 0, "Number of levels.", QOE_SESSION(level_count), INTEGER, 0),
    FIELD("levels_kbps", NUMBERS, NULL, "kbps", NEVER, 0, "Ladder bitrates, kbps, lowest first.",
          QOE_SESSION(levels_kbps), NUMBERS, offsetof(abrl_qoe_session, level_count)),
    FIELD("trace", STRING, NULL, "", NEVER, 0, "Name of the network trace.",
          QOE_SESSION(trace), STRING, offsetof(abrl_qoe_session, trace_length)),
    FIELD("profile", STRING, NULL, "", NEVER, 0, "Name of the emulation profile.",
          QOE_SESSION(profile), STRING, offsetof(abrl_qoe_session, profile_length)),
    FIELD("seed", INTEGER, NULL, "", NEVER, 0, "The session seed; `math.random` is already seeded with it.",
          QOE_SESSION(seed), INTEGER, 0),
    FIELD("startup_s", NUMBER, NULL, "s", NEVER, 0, "Time from the session's start to playback, seconds.",
          QOE_SESSION(startup_s), NUMBER, 0),
};

#define TABLE(name, class_name, strict, skips, fields) {name, class_name, strict, skips, fields, sizeof fields / sizeof fields[0]}

const abrl_table abrl_tables[ABRL_TABLE_COUNT] = {
    [ABRL_TABLE_CTX] = TABLE("ctx", "abrlab.Context", 1, 0, ctx_fields),
    [ABRL_TABLE_REPORT] = TABLE("report", "abrlab.Report", 1, 0, report_fields),
    [ABRL_TABLE_CHUNK] = TABLE("chunk", "abrlab.Chunk", 0, 0, chunk_fields),
    [ABRL_TABLE_PROGRESS] = TABLE("progress", "abrlab.Progress", 1, 0, progress_fields),
    [ABRL_TABLE_WAIT] = TABLE("wait", "abrlab.Wait", 1, 0, wait_fields),
    [ABRL_TABLE_PLAYBACK] = TABLE("playback", "abrlab.Playback", 1, 0, playback_fields),
    [ABRL_TABLE_SESSION] = TABLE("session", "abrlab.Session", 0, 0, session_fields),
    [ABRL_TABLE_VIDEO] = TABLE("video", "abrlab.Video", 1, 1, session_fields),
    [ABRL_TABLE_QOE_SEGMENT] = TABLE("segment", "abrlab.QoESegment", 0, 0, qoe_segment_fields),
    [ABRL_TABLE_QOE_SESSION] = TABLE("session", "abrlab.QoESession", 0, 0, qoe_session_fields),
};

static const abrl_table *table_at(int table) {
    return table >= 0 && table < ABRL_TABLE_COUNT ? &abrl_tables[table] : NULL;
}

const char *abrl_api_table_name(int table) {
    return table_at(table) != NULL ? table_at(table)->name : NULL;
}

const char *abrl_api_class_name(int table) {
    return table_at(table) != NULL ? table_at(table)->class_name : NULL;
}

int abrl_api_table_is_strict(int table) {
    return table_at(table) != NULL && table_at(table)->strict;
}

size_t abrl_api_field_count(int table) {
    const abrl_table *declared = table_at(table);
    size_t count = 0;
    for (size_t i = 0; declared != NULL && i < declared->count; i++) {
        if (!(declared->skips_per_session && declared->fields[i].per_session)) count++;
    }
    return count;
}

const abrl_api_field *abrl_api_field_at(int table, size_t index) {
    const abrl_table *declared = table_at(table);
    for (size_t i = 0; declared != NULL && i < declared->count; i++) {
        if (declared->skips_per_session && declared->fields[i].per_session) continue;
        if (index == 0) return &declared->fields[i].api;
        index--;
    }
    return NULL;
}
