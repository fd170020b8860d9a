---@meta abrlab
-- LuaCATS annotations for abrlab strategy scripts, read by lua-language-server and other
-- editors that understand LuaCATS. abrlab itself never runs this file: discovery skips any
-- file whose first line is `---@meta`. Annotate a script's table with `---@type abrlab.Strategy`.
-- Reference: docs/lua-api.md. The tables' fields, their types and their one-line docs follow the
-- declaration the shim fills them from (Sources/CLuaShim/api.c); LuaAPIDocsTests checks it.

---@alias abrlab.NetworkQuality
---| "offline"   # no bandwidth
---| "poor"      # below 500 kbps
---| "fair"      # below 2 Mbps
---| "good"      # below 5 Mbps
---| "excellent" # 5 Mbps or more

---@alias abrlab.ParamValue number|integer|boolean|string

---The table a strategy script returns. A script defines `choose` (the session form) or the
---three seed-protocol functions `initial_bitrate`, `should_upgrade` and `should_downgrade`.
---@class abrlab.Strategy
---@field name? string Display name; the id (file name without `.lua`) when absent.
---@field description? string One line shown in listings.
---@field params? table<string, abrlab.ParamValue> Defaults; abrlab writes the effective values (after `id.key=value` overrides) into this same table before `setup`.
---@field param_types? table<string, "integer"|"number"> `"integer"` makes overrides of that parameter integers only; otherwise a number default takes any number.
---@field check? fun(video: abrlab.Video): string|boolean|nil Once per run, before any session: nil (or true) when the strategy can play the video, else a string saying why not; compare then refuses a strategy named on the command line and skips one from a folder with a warning.
---@field setup? fun(session: abrlab.Session) Called once per session, before the first decision.
---@field choose? fun(ctx: abrlab.Context): integer, number?, number? Returns the 1-based level of segment `ctx.segment_index`, optionally an idle delay before the request, seconds, and (live profile only) a playback rate 0.5–2 held until the next decision; nil lets the player's catch-up decide.
---@field on_download? fun(report: abrlab.Report) Called after every request (abandoned ones and replacements included).
---@field check_abandon? fun(progress: abrlab.Progress): integer|nil, abrlab.Recheck|nil During a download on profiles with abandonment: nil to go on, optionally with when the next check can matter, or a lower 1-based level to abandon it.
---@field on_wait? fun(wait: abrlab.Wait) After the player waited because its buffer was full.
---@field on_playback? fun(playback: abrlab.Playback): number? Live only: at every chunk arrival and every chunk duration while a chunk is on its way; a playback rate 0.5–2 held until the next update or decision, or nil to keep the rate in force.
---@field initial_bitrate? fun(network_quality: abrlab.NetworkQuality, levels: integer[]): integer Question form: the first bitrate, bits/s, one of `levels`.
---@field should_upgrade? fun(current_bitrate: integer, buffer_health: number, network_quality: abrlab.NetworkQuality, levels: integer[]): integer? Question form: a higher ladder bitrate (bits/s) or nil.
---@field should_downgrade? fun(current_bitrate: integer, rebuffering_ratio: number, network_quality: abrlab.NetworkQuality, levels: integer[]): integer? Question form: a lower ladder bitrate (bits/s) or nil.

---What `choose` sees. abrlab keeps one ctx per session and refreshes it before every
---decision; treat it and its arrays as read-only and copy what you keep.
---@class abrlab.Context
---@field segment_index integer 1-based index of the segment being chosen.
---@field segment_count integer Segments this session plays.
---@field segment_duration_s number Duration of one segment, seconds.
---@field levels_kbps number[] Ladder bitrates, kilobits per second, lowest first.
---@field level_count integer Number of levels.
---@field last_level integer? 1-based level of the previous segment; nil before the first download.
---@field buffer_s number Buffer after the previous download (and any full-buffer wait), seconds.
---@field rebuffer_s number Stall time so far, seconds (startup included when the profile counts it).
---@field stall_count integer Mid-playback stalls so far.
---@field elapsed_s number Simulated time since the session started, seconds.
---@field estimate_kbps number The seed estimator's bandwidth estimate, kbps; 0 before any download.
---@field throughput_estimate_kbps number|nil The profile's throughput estimate (Sabre's EWMA by default), kbps; nil before the first completed download.
---@field latency_estimate_s number|nil The profile's latency estimate, seconds; nil before the first completed download.
---@field network_quality abrlab.NetworkQuality The estimate classified by the seed's thresholds.
---@field max_buffer_s number Buffer the player aims for, seconds.
---@field throughputs_kbps number[] Throughput of every earlier download, kbps, oldest first.
---@field download_times_s number[] Duration of every earlier download (latency included), seconds.
---@field sizes_bytes integer[] Size of every earlier download, bytes.
---@field live boolean Whether the session is live (`--profile live`).
---@field throughput_method "segment"|"chunk" How throughput samples are measured: over the whole transfer, or (live) dash.js's per-chunk method that leaves out time spent waiting for the encoder.
---@field live_latency_s number|nil Live latency now (live edge − playhead), seconds; nil off live.
---@field target_latency_s number|nil Latency the player aims for, seconds; nil off live.
---@field playback_rate number|nil Playback rate in force (1 = real time); nil off live.
---@field live_edge_s number|nil Media time of the end of the newest finished chunk, seconds; nil off live.
---@field playhead_s number|nil Media time the player is at, seconds; nil off live.
---@field chunk_duration_s number|nil Duration of one chunk, seconds; nil off live.
---@field last_chunks abrlab.Chunk[]|nil Chunks of the latest delivered download, in order (empty before the first); nil off live.
---@field dashjs_level integer|nil dash.js 5.1.1's choice for this segment (its default rules' lowest proposal, else the level playing), 1-based; nil off the dashjs profile.
---@field dashjs_throughput_kbps number|nil dash.js's average throughput (EWMA of its samples, rounded), kbps; nil before its first sample and off the dashjs profile.
---@field dashjs_safe_throughput_kbps number|nil dash.js's safe average throughput (the average × 0.9), kbps; nil when dashjs_throughput_kbps is.
---@field dashjs_latest_throughput_kbps number|nil dash.js's newest throughput sample, kbps; nil when dashjs_throughput_kbps is.
---@field dashjs_buffer_s number|nil The buffer level dash.js's rules read (the last BufferLevel metric, to the ms), seconds; nil off the dashjs profile.
---@field dashjs_bola_active boolean|nil Whether BOLA rather than ThroughputRule decides (on from 18 s of buffer, off below 9 s); nil off the dashjs profile.
---@field dashjs_throughput_rule_level integer|nil ThroughputRule's proposal, 1-based, probed even while BOLA decides; nil when it proposes nothing.
---@field dashjs_bola_level integer|nil BOLA's proposal, 1-based; nil while ThroughputRule decides or when BOLA proposes nothing.
---@field dashjs_insufficient_buffer_level integer|nil InsufficientBufferRule's proposal, 1-based; nil when it proposes nothing.
---@field dashjs_switch_history_level integer|nil SwitchHistoryRule's proposal, 1-based; nil when it proposes nothing.
---@field dashjs_bola_phase "startup"|"steady"|"one_bitrate"|nil BOLA's phase; nil before BOLA's first call and off the dashjs profile.
---@field dashjs_bola_placeholder_s number|nil BOLA-O's placeholder buffer after this decision, seconds; nil before BOLA's first call and off the dashjs profile.
---@field dashjs_bola_delay_s number|nil The delay BOLA asks for before the request (0 for none), seconds; nil off the dashjs profile.
local Context = {}

---Size in bytes of `segment` at `level`, both 1-based and absolute; 0 outside the video.
---Callable as `ctx.size_bytes(segment, level)` or `ctx:size_bytes(segment, level)`.
---@param segment integer
---@param level integer
---@return integer bytes
---@overload fun(self: abrlab.Context, segment: integer, level: integer): integer
function Context.size_bytes(segment, level) end

---Per-segment quality of `segment` at `level` (both 1-based and absolute), from the video
---manifest's `segment_vmaf` and `segment_ssim`; each is nil when the video has no such scores or
---the indices fall outside it. Callable as `ctx.quality(segment, level)` or `ctx:quality(segment, level)`.
---@param segment integer
---@param level integer
---@return number? vmaf VMAF, 0–100.
---@return number? ssim SSIM index, at most 1.
---@overload fun(self: abrlab.Context, segment: integer, level: integer): number?, number?
function Context.quality(segment, level) end

---RobustMPC's look-ahead search, run natively by abrlab's MPCSearch (the search robust_mpc-native
---runs); call as `ctx:mpc_search(...)`. Scores every level sequence over min(horizon, segments
---left) segments starting at segment_index + lookahead_offset by Σ bitrate Mbps −
---rebuffer_penalty × rebuffering s − smoothness_penalty × Σ |Δ bitrate Mbps|, with download
---time = size MB / bandwidth. Needs `last_level`; costs 32 budget instructions per search node.
---@param self abrlab.Context
---@param bandwidth number Predicted throughput, MB/s (> 0).
---@param horizon integer Segments to look ahead, 1–10.
---@param lookahead_offset? integer Segments past the one being chosen to read sizes from (default 0).
---@param rebuffer_penalty? number Score per second of rebuffering (default 4.3).
---@param smoothness_penalty? number Score per Mbps of switching (default 1).
---@return integer level First level (1-based) of the best sequence; ties go to the later sequence.
---@return number score The best sequence's score.
function Context.mpc_search(self, bandwidth, horizon, lookahead_offset, rebuffer_penalty, smoothness_penalty) end

---What `on_download` sees after every download; one table per session, refreshed each time.
---@class abrlab.Report
---@field segment_index integer 1-based index of the downloaded segment.
---@field level integer 1-based level it was downloaded at.
---@field size_bytes integer Its size, bytes.
---@field download_time_s number From request to last byte (latency included), seconds.
---@field throughput_kbps number size_bytes × 8 / download_time_s / 1000; on live the chunk-based measure (see ctx.throughput_method).
---@field rebuffer_s number Stall this download caused, seconds.
---@field buffer_s number Buffer after the segment arrived (and after any full-buffer wait), seconds.
---@field wait_s number Time the player then waited because its buffer was full, seconds (level-buffer profiles).
---@field latency_s number Time from the request to the first byte, seconds.
---@field received_bytes number Bytes that arrived (size_bytes unless abandoned).
---@field abandoned boolean Whether check_abandon stopped the download.
---@field abandoned_to_level integer|nil The 1-based level check_abandon asked for; nil when not abandoned.
---@field replacement boolean Whether the request replaced a buffered segment.
---@field chunks abrlab.Chunk[]|nil Live: the segment's chunks as they arrived; nil off live.

---@class abrlab.Chunk
---@field size_bytes integer The chunk's size, bytes.
---@field available_s number Session time the encoder finished it, seconds.
---@field first_byte_s number Session time its first byte arrived, seconds.
---@field arrival_s number Session time its last byte arrived, seconds.

---A download under way, passed to `check_abandon`.
---@class abrlab.Progress
---@field segment_index integer The segment being downloaded, 1-based.
---@field level integer Its 1-based level.
---@field size_bytes number The whole segment's size, bytes (fractional when the video gives bits).
---@field received_bytes number Bytes received so far.
---@field elapsed_s number Time since the request, latency included, seconds.
---@field ttfb_s number Time from the request to the first byte, seconds.
---@field buffer_s number Buffer when the request went out minus elapsed_s, at least 0, seconds.

---The optional second result of `check_abandon` with nil: the player skips the checks until a
---progress step meets every field given. Each must be a necessary condition for abandoning
---(`--check-every-step` verifies that results do not change); each counts as met 1 µs early.
---@class abrlab.Recheck
---@field elapsed_s number? Check again once progress.elapsed_s reaches this, seconds; math.huge ends the checks of this download.
---@field projected_s number? Check again once elapsed_s + (size_bytes − received_bytes)·(elapsed_s − ttfb_s)/received_bytes exceeds this, seconds (always met before the first byte).

---A full-buffer wait, passed to `on_wait`.
---@class abrlab.Wait
---@field wait_s number How long the player waited, seconds.
---@field buffer_s number Buffer after the wait, seconds.

---A live playback update, passed to `on_playback`.
---@class abrlab.Playback
---@field now_s number Session time of the update, seconds.
---@field buffer_s number Media buffered ahead of the playhead, seconds.
---@field live_latency_s number Live edge − playhead, seconds.
---@field target_latency_s number The latency the player aims for, seconds.
---@field playback_rate number The rate in force (1 = real time).
---@field playhead_s number Media time of the playhead, seconds.
---@field live_edge_s number Media time of the end of the newest chunk the encoder has finished, seconds.
---@field segment_index integer The segment under way, 1-based.
---@field chunks_arrived integer Its chunks arrived so far.
---@field stalled boolean Whether the buffer ran empty and no chunk has arrived since.

---What `check` sees once per run: the session fields that do not depend on a session.
---@class abrlab.Video
---@field segment_count integer Segments a session plays.
---@field segment_duration_s number Duration of one segment, seconds.
---@field levels_kbps number[] Ladder bitrates, kbps, lowest first.
---@field level_count integer Number of levels.
---@field profile string Name of the emulation profile.
---@field max_buffer_s number Buffer the player aims for, seconds.
---@field params table<string, abrlab.ParamValue> The effective params: the same table as the script's `params`.
---@field live boolean Whether the run's sessions are live.
---@field target_latency_s number|nil Live: the target latency, seconds; nil off live.
---@field chunk_duration_s number|nil Live: duration of one chunk, seconds; nil off live.

---What `setup` sees once per session.
---@class abrlab.Session
---@field segment_count integer Segments a session plays.
---@field segment_duration_s number Duration of one segment, seconds.
---@field levels_kbps number[] Ladder bitrates, kbps, lowest first.
---@field level_count integer Number of levels.
---@field trace string Name of the network trace.
---@field profile string Name of the emulation profile.
---@field seed integer The session seed (64-bit; seeds above 2^63 - 1 appear negative); `math.random` is already seeded with it.
---@field max_buffer_s number Buffer the player aims for, seconds.
---@field params table<string, abrlab.ParamValue> The effective params: the same table as the script's `params`.
---@field live boolean Whether the run's sessions are live.
---@field target_latency_s number|nil Live: the target latency, seconds; nil off live.
---@field chunk_duration_s number|nil Live: duration of one chunk, seconds; nil off live.

---A QoE model script (`--qoe model.lua`, docs/qoe.md): returned by the script, it scores every
---segment of a finished session.
---@class abrlab.QoEModel
---@field name? string Shown by the docs and messages; the file name when absent.
---@field description? string One line on what the model rewards.
---@field qoe fun(segment: abrlab.QoESegment, session: abrlab.QoESession): number The segment's score, a finite number.

---One played segment, as `qoe` sees it; one table per session, refilled for every segment.
---@class abrlab.QoESegment
---@field index integer The segment, 1-based.
---@field level integer Its level, 1-based.
---@field previous_level integer? The previous segment's level, 1-based; nil for the first segment.
---@field bitrate_kbps number Its level's bitrate, kbps.
---@field previous_bitrate_kbps number? The previous segment's bitrate, kbps; nil for the first segment.
---@field size_bytes integer Its size, bytes.
---@field duration_s number Its duration, seconds.
---@field rebuffer_s number Stall its download caused, seconds (for the first segment, the startup delay when the profile counts it as rebuffering).
---@field download_time_s number Request latency plus transfer time, seconds.
---@field throughput_kbps number size_bytes × 8 / download_time_s / 1000.
---@field buffer_before_s number Buffer when the request went out, seconds.
---@field buffer_after_s number Buffer after the segment arrived and any full-buffer wait, seconds.
---@field wait_s number Time waited afterwards because the buffer was full, seconds.
---@field vmaf number? Its VMAF (0–100) from the manifest's segment_vmaf; nil when the video has none.
---@field previous_vmaf number? The previous segment's VMAF; nil for the first segment or without VMAF.
---@field ssim number? Its SSIM index (at most 1) from segment_ssim; nil when the video has none.
---@field previous_ssim number? The previous segment's SSIM; nil for the first segment or without SSIM.

---The finished session, as `qoe` sees it; the same table for every segment of a session.
---@class abrlab.QoESession
---@field segment_count integer Segments the session played.
---@field segment_duration_s number Duration of one segment, seconds.
---@field level_count integer Number of levels.
---@field levels_kbps number[] Ladder bitrates, kbps, lowest first.
---@field trace string Name of the network trace.
---@field profile string Name of the emulation profile.
---@field seed integer The session seed; `math.random` is already seeded with it.
---@field startup_s number Time from the session's start to playback, seconds.

---The sandbox's `math.randomseed` needs an explicit seed (the standard one without arguments
---seeds from the clock). Sessions start seeded with their session seed.
---@param x integer
---@param y? integer
function math.randomseed(x, y) end

---Loads module `name` from the strategy script's folder: dots separate folders and `.lua` is
---added, so `require("lib.helpers")` reads `lib/helpers.lua` next to the script (for any file
---that calls it). Names are letters, digits and `_` joined by single dots, at most 48
---characters. The module runs once per session, in the session's environment and under the
---calling function's budget; later requires of the same name in the session return the same
---value (`true` when the module returns nothing). The file must lie inside the folder (no link
---out of it). A literal name (`require("lib.x")`) is read when the script loads and covered by
---the run's fingerprint; prefer it to a name built at run time. See docs/lua-api.md, "Modules".
---@param name string
---@return any
function require(name) end

---A learned policy loaded with `abrlab.model`; its forward pass runs natively.
---@class abrlab.Model
---@field rows integer Rows of the state `forward` takes (6 for Pensieve-style actors).
---@field columns integer Numbers per row (the history length; 8 for Pensieve).
---@field outputs integer Number of actions, the length of what `forward` returns.
---@field actions "levels"|"steps" What output i means: level i (Pensieve), or for "steps" (Genet) one level down, stay, one level up from the level just downloaded (outputs 1, 2, 3), clamped to the ladder. From the file's `__metadata__` (docs/lua-api.md, "Models").
local Model = {}

---The output probabilities for a state of `rows` tables of `columns` finite numbers, written
---into `into` when given (no allocation), else into a new table. Costs a fixed share of the
---instruction budget (multiply-adds / 16, at least 1000).
---@param rows number[][]
---@param into? number[]
---@return number[]
function Model:forward(rows, into) end

---abrlab's own functions for scripts.
abrlab = {}

---Loads the safetensors model at `path`, relative to the script's folder (no absolute paths, no
---`..`). The file is read and checked once per script; call it at the top level so a bad file
---stops the load. The layout contract is in docs/lua-api.md, "Models".
---@param path string
---@return abrlab.Model
function abrlab.model(path) end
